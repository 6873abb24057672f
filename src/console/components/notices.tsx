import { dismissNotice, useNotices } from '../lib/notices';

/** The polite live region that announces success and failure notices. */
export function Notices() {
  const notices = useNotices();
  return (
    <div className="notices" aria-live="polite" aria-relevant="additions text">
      {notices.map((notice) => (
        <div key={notice.id} className={`notice notice-${notice.kind}`}>
          <p>{notice.text}</p>
          <button
            type="button"
            className="notice-dismiss"
            aria-label="Dismiss notice"
            onClick={() => dismissNotice(notice.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
