import { Link } from 'react-router';
import type { SessionConfig } from '../editing/edit-session';

/** The h1, the line under it (kind, revision, base) and what the key may do here. */
export function ConfigHeading({
  config,
  baseLabel,
  canWrite,
}: {
  config: SessionConfig;
  baseLabel: string;
  canWrite: boolean;
}) {
  const isDraft = config.kind === 'draft';
  return (
    <>
      <h1>{config.label}</h1>
      <p className="config-meta">
        <span>{isDraft ? 'Draft' : 'Published'}</span>
        {config.live && <span className="config-live"> · live</span>}
        <span>{` · revision ${config.revision}`}</span>
        {isDraft && config.base_config_id !== null && (
          <span>
            {' · from '}
            <Link to={`/configs/${encodeURIComponent(config.base_config_id)}`}>{baseLabel}</Link>
          </span>
        )}
      </p>
      {!isDraft && canWrite && (
        <p className="muted">Saving an edit makes a new draft from this config.</p>
      )}
      {!canWrite && (
        <p className="alert alert-warning">
          Your API key can read configs but not change them: the editor is read-only.
        </p>
      )}
    </>
  );
}
