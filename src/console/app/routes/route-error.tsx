import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Button } from '../../components/button';
import { ErrorBoundary } from '../../components/error-boundary';
import { describeError } from '../../lib/api-client';
import { PRODUCT_NAME } from '../../lib/page-title';

/**
 * A page (or the layout) that fails to render shows RouteError in its place, until the
 * address changes: going elsewhere renders the routes again.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary fallback={({ error, reset }) => <RouteError error={error} reset={reset} />}>
      {children}
    </ErrorBoundary>
  );
}

/** A page (or the layout) failed to render: say so, keep a way out. */
export function RouteError({ error, reset }: { error: unknown; reset: () => void }) {
  const { pathname } = useLocation();
  const failedAt = useRef(pathname);
  useEffect(() => {
    if (pathname !== failedAt.current) reset();
  }, [pathname, reset]);
  return (
    <div className="page">
      <h1>Something went wrong</h1>
      <p role="alert" className="alert alert-error">
        This page could not be shown. {describeError(error)}
      </p>
      <p>
        <ReloadButton /> or go to the <Link to="/settings">settings</Link>.
      </p>
    </div>
  );
}

/** Outside the router: the last line of defence. */
export function AppError() {
  return (
    <main className="page app-error">
      <h1>{PRODUCT_NAME} ran into a problem</h1>
      <p role="alert">The console could not be shown.</p>
      <p>
        <ReloadButton />
      </p>
    </main>
  );
}

/** The way out when a page (or the whole console) failed: load it all again. */
function ReloadButton() {
  return <Button onClick={() => window.location.reload()}>Reload the page</Button>;
}
