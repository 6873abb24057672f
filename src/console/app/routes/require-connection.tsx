import { Navigate, Outlet } from 'react-router';
import { NOT_CONNECTED_STATE, useConnection } from '../../lib/connection';

/** Pages that need a key: without one (or after a 401), go to the settings. */
export function RequireConnection() {
  const connection = useConnection();
  if (!connection) return <Navigate to="/settings" replace state={NOT_CONNECTED_STATE} />;
  return <Outlet />;
}
