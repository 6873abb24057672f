import { ErrorBoundary, RegionError } from '../../components/error-boundary';
import { useAuthStatus } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { ApiKeysSection } from './components/api-keys-section';
import { ConnectionSection } from './components/connection-section';
import { ReviewPolicySection } from './components/review-policy-section';
import { SettingsNav } from './settings-nav';

/** `/settings`: who is signed in and Sign out, the account's API keys and review policy. */
export function SettingsPage() {
  usePageTitle('Settings');
  const status = useAuthStatus();

  return (
    <div className="page">
      <h1>Settings</h1>
      <SettingsNav status={status.data} />
      <ConnectionSection />
      {status.data && (
        <ErrorBoundary fallback={({ reset }) => <RegionError what="The API keys" reset={reset} />}>
          <ApiKeysSection status={status.data} />
        </ErrorBoundary>
      )}
      {status.data && (
        <ErrorBoundary
          fallback={({ reset }) => <RegionError what="The review policy" reset={reset} />}
        >
          <ReviewPolicySection status={status.data} />
        </ErrorBoundary>
      )}
    </div>
  );
}
