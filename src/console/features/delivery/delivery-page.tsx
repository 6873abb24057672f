import { ErrorBoundary, RegionError } from '../../components/error-boundary';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { describeError } from '../../lib/api-client';
import { useAuthStatus } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { LIVE } from '../../api/get-config';
import { useConfigWithContents, type ConfigWithContentsQuery } from '../../api/get-config-contents';
import { AppsSection } from './components/apps-section';
import { ClientKeysSection } from './components/client-keys-section';
import { WebhooksSection } from './components/webhooks-section';

/**
 * `/delivery`: how the live config reaches apps. Client keys with their snippets, webhooks
 * with their recent deliveries, and for each app of the live config, what a unit gets.
 */
export function DeliveryPage() {
  usePageTitle('Delivery');
  const status = useAuthStatus();
  const live = useConfigWithContents(LIVE);

  return (
    <div className="page">
      <h1>Delivery</h1>
      {status.isPending ? (
        <Spinner label="Loading the delivery…" />
      ) : (
        status.data && (
          <ErrorBoundary
            fallback={({ reset }) => <RegionError what="The client keys" reset={reset} />}
          >
            {/* Keys do not wait for the live config: only the app choices and snippets read it. */}
            <ClientKeysSection status={status.data} contents={live.data?.contents} />
          </ErrorBoundary>
        )
      )}
      {status.data && (
        <ErrorBoundary fallback={({ reset }) => <RegionError what="The webhooks" reset={reset} />}>
          <WebhooksSection status={status.data} />
        </ErrorBoundary>
      )}
      <ErrorBoundary fallback={({ reset }) => <RegionError what="The apps" reset={reset} />}>
        <LiveApps live={live} />
      </ErrorBoundary>
    </div>
  );
}

function LiveApps({ live }: { live: ConfigWithContentsQuery }) {
  if (live.isPending) return <Spinner label="Loading the live config…" />;
  if (live.isError) {
    return (
      <div className="alert alert-error" role="alert">
        <p>The live config could not be loaded. {describeError(live.error)}</p>
        <Button onClick={() => live.refetch()}>Try again</Button>
      </div>
    );
  }
  return <AppsSection apps={live.data.contents?.apps ?? []} />;
}
