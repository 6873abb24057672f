import { useState } from 'react';
import { useLocation } from 'react-router';
import { ErrorBoundary, RegionError } from '../../components/error-boundary';
import { describeSignOutReason, NOT_CONNECTED_MESSAGE, useAuthStatus } from '../../lib/auth';
import { connectionStore, useConnectionState, wasSentForConnection } from '../../lib/connection';
import { usePageTitle } from '../../lib/page-title';
import { ApiKeysSection } from './components/api-keys-section';
import { ConnectionSection } from './components/connection-section';
import { ReviewPolicySection } from './components/review-policy-section';

/** `/settings`: the connection (API base URL and key), the account's API keys and review policy. */
export function SettingsPage() {
  usePageTitle('Settings');
  const location = useLocation();
  const { connection, signOutReason } = useConnectionState();
  const status = useAuthStatus();
  // Once the person presses Connect, why they were sent here is no longer news.
  const [attempted, setAttempted] = useState(false);

  const why = signOutReason
    ? describeSignOutReason(signOutReason)
    : !connection && !attempted && wasSentForConnection(location.state)
      ? NOT_CONNECTED_MESSAGE
      : null;

  return (
    <div className="page">
      <h1>Settings</h1>
      {why && (
        <p role="alert" className="alert alert-warning">
          {why}
        </p>
      )}
      <ConnectionSection
        onAttempt={() => {
          setAttempted(true);
          connectionStore.dismissSignOutReason();
        }}
      />
      {connection && status.data && (
        <ErrorBoundary fallback={({ reset }) => <RegionError what="The API keys" reset={reset} />}>
          <ApiKeysSection status={status.data} />
        </ErrorBoundary>
      )}
      {connection && status.data && (
        <ErrorBoundary
          fallback={({ reset }) => <RegionError what="The review policy" reset={reset} />}
        >
          <ReviewPolicySection status={status.data} />
        </ErrorBoundary>
      )}
    </div>
  );
}
