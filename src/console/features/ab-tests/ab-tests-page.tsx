import { Link } from 'react-router';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { describeError, isNotOffered } from '../../lib/api-client';
import { useAuthStatus } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { offers } from '../../lib/permissions';
import { useConfigsWithContents } from '../../api/get-config-contents';
import { MAX_DRAFTS_LISTED } from '../../api/get-configs';
import { AbTestTable } from './components/ab-test-table';
import { PageOutcomeNotice, usePageOutcome } from './components/page-outcome';

/** `/ab-tests`: the tests of the live config and of the drafts. */
export function AbTestsPage() {
  usePageTitle('A/B tests');
  const sources = useConfigsWithContents();
  const auth = useAuthStatus();
  const outcome = usePageOutcome();

  return (
    <div className="page">
      <h1>A/B tests</h1>
      {outcome && <PageOutcomeNotice outcome={outcome} />}
      {offers(auth.data, 'config:write') && (
        <p>
          <Link className="button button-primary" to="/ab-tests/new">
            New A/B test
          </Link>
        </p>
      )}
      <section
        className="card"
        aria-label="All A/B tests"
        aria-busy={sources.isFetching || undefined}
      >
        {sources.error ? (
          isNotOffered(sources.error) ? (
            <p>
              This server does not offer reading configs (GET /configs/live), so its tests cannot be
              shown.
            </p>
          ) : (
            <div className="alert alert-error" role="alert">
              <p>The A/B tests could not be loaded. {describeError(sources.error)}</p>
              <Button onClick={sources.refetch}>Try again</Button>
            </div>
          )
        ) : sources.isPending ? (
          <Spinner label="Loading the A/B tests…" />
        ) : (
          <>
            <AbTestTable sources={sources.sources} />
            {sources.draftsLoading > 0 && <Spinner label="Loading the tests of more drafts…" />}
            {sources.sources
              .filter((source) => source.contents === null)
              .map((source) => (
                <p key={source.config.id} className="warning-text">
                  {source.config.label} does not parse as YAML: its tests cannot be shown until it
                  is fixed in the editor.
                </p>
              ))}
            {sources.draftsLeftOut && (
              <p className="muted">
                Showing the tests of the newest {MAX_DRAFTS_LISTED} drafts; older drafts are left
                out.
              </p>
            )}
            {!sources.listsDrafts && (
              <p className="muted">
                This server does not list configs (GET /configs): only the live config’s tests are
                shown.
              </p>
            )}
          </>
        )}
      </section>
    </div>
  );
}
