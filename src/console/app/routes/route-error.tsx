import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { describeError } from '../../lib/api-client';
import { PRODUCT_NAME } from '../../lib/page-title';

/** A page (or the layout) failed to render: say so, keep a way out. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="page">
        <h1>Page not found</h1>
        <p>
          There is no page at this address. Go to the <Link to="/configs">configs</Link>.
        </p>
      </div>
    );
  }
  return (
    <div className="page">
      <h1>Something went wrong</h1>
      <p role="alert" className="alert alert-error">
        This page could not be shown. {describeError(error)}
      </p>
      <p>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => window.location.reload()}
        >
          Reload the page
        </button>{' '}
        or go to the <Link to="/settings">settings</Link>.
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
        <button
          type="button"
          className="button button-secondary"
          onClick={() => window.location.reload()}
        >
          Reload the page
        </button>
      </p>
    </main>
  );
}
