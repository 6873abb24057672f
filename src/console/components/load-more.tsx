/**
 * The end of a list that has more: a "Load more" button, which also presses itself as the
 * person scrolls near it (an IntersectionObserver on its row). A failure is said beside it,
 * and then only the button tries again, so that a failing server is not asked in a loop.
 */
import { useEffect, useRef } from 'react';
import { describeError } from '../lib/api-client';
import type { MoreItems } from '../lib/list-pages';
import { Button } from './button';
import { ErrorAlert } from './error-alert';

/** How far below the visible area the row may be when the next page is read. */
const AHEAD = '400px';

export function LoadMore({ more, what }: { more: MoreItems; what: string }) {
  const row = useRef<HTMLDivElement>(null);
  const { hasMore, loading, error, load } = more;
  const failed = error !== null && error !== undefined;

  useEffect(() => {
    const target = row.current;
    if (!target || !hasMore || loading || failed) return;
    if (typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) load();
      },
      { rootMargin: `0px 0px ${AHEAD} 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, loading, failed, load]);

  if (!hasMore) return null;
  return (
    <div ref={row} className="load-more">
      <Button pending={loading} onClick={load}>
        Load more {what}
      </Button>
      <ErrorAlert>
        {failed && `More ${what} could not be loaded. ${describeError(error)}`}
      </ErrorAlert>
    </div>
  );
}
