import { lazy, Suspense, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { AbTestContents } from '../../../configs';
import { Button } from '../../components/button';
import { ErrorBoundary, RegionError } from '../../components/error-boundary';
import { Spinner } from '../../components/spinner';
import { Time } from '../../components/time';
import { ApiProblem, describeError } from '../../lib/api-client';
import { useAuthStatus } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { offers } from '../../lib/permissions';
import { LIVE } from '../../api/get-config';
import { useConfigWithContents, type ConfigWithContents } from '../../api/get-config-contents';
import { describeIssue } from '../../ab-test-kit/components/request-problem';
import { StepDialog } from '../../ab-test-kit/components/step-dialogs';
import { UnitAssignmentBox } from '../../ab-test-kit/components/unit-assignment-box';
import { issuesOfTest } from '../../ab-test-kit/form/server-errors';
import { stepsOffered, type LifecycleStep } from '../../ab-test-kit/lifecycle';
import { configOf, describeOverrides, statusLabel } from './components/ab-test-table';
import { PageOutcomeNotice, usePageOutcome, useShowStepOutcome } from './components/page-outcome';
import { DataTable } from '../../components/data-table';
import { TestTabs } from './components/test-tabs';

// The results (their charts and tables) load when the tab first opens.
const ResultsTab = lazy(() => import('./results/results-tab'));

type TabId = 'overview' | 'results';

/** `/ab-tests/:configId/:testId`: one test, and the lifecycle steps it allows. */
export function AbTestPage() {
  const { configId = LIVE, testId = '' } = useParams();
  usePageTitle(`A/B test ${testId}`);
  const source = useConfigWithContents(configId);
  const outcome = usePageOutcome();
  const test = source.data?.contents?.abTests.find((candidate) => candidate.id === testId);

  return (
    <div className="page">
      <p>
        <Link to="/ab-tests">All A/B tests</Link>
      </p>
      <h1>A/B test {testId}</h1>
      {outcome && <PageOutcomeNotice outcome={outcome} />}
      {source.isPending ? (
        <Spinner label="Loading the test…" />
      ) : source.isError ? (
        source.error instanceof ApiProblem && source.error.status === 404 ? (
          <p role="alert" className="alert alert-error">
            This config does not exist: a draft is gone once it is published or discarded. Find the
            test among <Link to="/ab-tests">all A/B tests</Link>.
          </p>
        ) : (
          <div className="alert alert-error" role="alert">
            <p>The test could not be loaded. {describeError(source.error)}</p>
            <Button onClick={() => void source.refetch()}>Try again</Button>
          </div>
        )
      ) : !test ? (
        <p role="alert" className="alert alert-error">
          {source.data.config.label} has no A/B test “{testId}”.{' '}
          <Link to="/ab-tests">All A/B tests</Link>
        </p>
      ) : (
        <AbTestDetails source={source.data} test={test} />
      )}
    </div>
  );
}

function AbTestDetails({ source, test }: { source: ConfigWithContents; test: AbTestContents }) {
  const auth = useAuthStatus();
  const [search, setSearch] = useSearchParams();
  const [step, setStep] = useState<{ step: LifecycleStep; winner?: string } | null>(null);
  const showOutcome = useShowStepOutcome();
  const steps = stepsOffered(test.status, auth.data);
  const promote = steps.find((candidate) => candidate.action === 'promote_ab_test');
  const tab: TabId = search.get('tab') === 'results' ? 'results' : 'overview';
  const selectTab = (next: TabId) => {
    if (next === tab) return;
    const params = new URLSearchParams(search);
    if (next === 'results') params.set('tab', 'results');
    else params.delete('tab');
    setSearch(params, { preventScrollReset: true });
  };

  return (
    <>
      <TestTabs<TabId>
        label={`Views of ${test.id}`}
        selected={tab}
        onSelect={selectTab}
        tabs={[
          {
            id: 'overview',
            label: 'Overview',
            panel: () => (
              <Overview
                source={source}
                test={test}
                steps={steps}
                onStep={(s) => setStep({ step: s })}
              />
            ),
          },
          {
            id: 'results',
            label: 'Results',
            panel: () => (
              <ErrorBoundary
                fallback={({ reset }) => <RegionError what="The results" reset={reset} />}
              >
                <Suspense fallback={<Spinner label="Loading the results…" />}>
                  <ResultsTab
                    testId={test.id}
                    app={test.app}
                    live={source.config.live}
                    onPromote={promote ? (winner) => setStep({ step: promote, winner }) : undefined}
                  />
                </Suspense>
              </ErrorBoundary>
            ),
          },
        ]}
      />
      {step && (
        <StepDialog
          step={step.step}
          winner={step.winner}
          source={source}
          test={test}
          onClose={() => setStep(null)}
          onDone={showOutcome}
        />
      )}
    </>
  );
}

/** What the test is, its variants and problems, its lifecycle steps, and the unit box. */
function Overview({
  source,
  test,
  steps,
  onStep,
}: {
  source: ConfigWithContents;
  test: AbTestContents;
  steps: readonly LifecycleStep[];
  onStep: (step: LifecycleStep) => void;
}) {
  const auth = useAuthStatus();
  const where = configOf(source);
  const issues = issuesOfTest(source.config.validation.issues, `/ab_tests/${test.index}`);

  return (
    <>
      <section className="card" aria-label="About the test">
        <dl className="details">
          <dt>Status</dt>
          <dd>
            <span className={`status status-${test.status ?? 'none'}`}>
              {statusLabel(test.status)}
            </span>
          </dd>
          <dt>App</dt>
          <dd>{test.app ?? '—'}</dd>
          <dt>Config</dt>
          <dd>
            <Link to={where.path}>{where.text}</Link>
          </dd>
          <dt>Description</dt>
          <dd>{test.description || '—'}</dd>
          <dt>Started</dt>
          <dd>{test.startedAt ? <Time value={test.startedAt} /> : '—'}</dd>
          <dt>Ended</dt>
          <dd>{test.endedAt ? <Time value={test.endedAt} /> : '—'}</dd>
          <dt>Winner</dt>
          <dd>{test.winner ?? '—'}</dd>
        </dl>
      </section>
      <section className="card" aria-label="Variants">
        <DataTable
          caption="Variants"
          showCaption
          columns={['Variant', 'Weight', 'Setting overrides']}
          rows={test.variants}
        >
          {(variant) => (
            <tr key={variant.id}>
              <th scope="row">
                {variant.id}
                {variant.id === test.winner && <strong> (winner)</strong>}
              </th>
              <td>{variant.weight ?? '—'}</td>
              <td>{describeOverrides(variant.settings) || 'None'}</td>
            </tr>
          )}
        </DataTable>
      </section>
      {issues.length > 0 && (
        <section className="card" aria-label="Problems of this test">
          <h2>Problems</h2>
          <ul className="issue-list">
            {issues.map((issue) => (
              <li key={`${issue.code} ${issue.path}`}>{describeIssue(issue)}</li>
            ))}
          </ul>
        </section>
      )}
      <section className="card" aria-label="Lifecycle">
        <h2>Lifecycle</h2>
        {!offers(auth.data, 'config:publish') ? (
          <p>Your API key cannot run lifecycle steps: that needs the config:publish permission.</p>
        ) : steps.length === 0 ? (
          <p>No lifecycle step applies to a test with the status {statusLabel(test.status)}.</p>
        ) : (
          <div className="form-actions">
            {steps.map((candidate) => (
              <Button
                key={candidate.action}
                variant={candidate.action === 'delete_ab_test' ? 'danger' : 'secondary'}
                onClick={() => onStep(candidate)}
              >
                {candidate.verb}
              </Button>
            ))}
          </div>
        )}
      </section>
      {test.app !== null && (
        <ErrorBoundary
          fallback={({ reset }) => <RegionError what="What a unit gets" reset={reset} />}
        >
          <UnitAssignmentBox appId={test.app} test={{ id: test.id, status: test.status }} />
        </ErrorBoundary>
      )}
    </>
  );
}
