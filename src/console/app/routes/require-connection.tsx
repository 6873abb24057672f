import { Navigate, Outlet, useLocation } from 'react-router';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { describeError } from '../../lib/api-client';
import { useAuthStatus } from '../../lib/auth';
import { signInPath, useConnectionState } from '../../lib/connection';

/**
 * Pages for a signed-in person. Signed out: the sign-in page, coming back here after. While
 * the console asks whether the browser still holds a session, a spinner.
 */
export function RequireConnection() {
  const { connection, confirmed } = useConnectionState();
  const status = useAuthStatus();
  const { pathname, search } = useLocation();
  if (!connection) return <Navigate to={signInPath(`${pathname}${search}`)} replace />;
  if (confirmed) return <Outlet />;
  if (status.isError) {
    return (
      <div className="page">
        <p role="alert" className="alert alert-error">
          Whether you are signed in could not be checked. {describeError(status.error)}
        </p>
        <Button onClick={() => void status.refetch()}>Try again</Button>
      </div>
    );
  }
  return (
    <div className="page" aria-busy="true">
      <Spinner label="Checking whether you are signed in…" />
    </div>
  );
}
