/**
 * The Results tab of a test's page (a chunk of its own, loaded when the tab opens): status,
 * phase and dates, when the results were computed (Refresh asks for them now), units and
 * health, one row per metric, the lift over time, and the engine the address names.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ExperimentPhase, ExperimentResults } from '../../../../contract/experiments';
import { Button } from '../../../components/button';
import { Spinner } from '../../../components/spinner';
import { Time } from '../../../components/time';
import { describeError } from '../../../lib/api-client';
import { absoluteBaseUrl } from '../../../lib/client-code';
import { copyToClipboard } from '../../../lib/clipboard';
import { useConnection } from '../../../lib/connection';
import { useResults } from '../api/get-results';
import { useRefreshResults } from '../api/refresh-results';
import { statusLabel } from '../components/ab-test-table';
import { EngineSwitch } from './engine-switch';
import { experimentSnippet } from './experiment-snippet';
import { LiftOverTime } from './lift-over-time';
import { MetricsTable } from './metrics-table';
import { queryOfView, searchWithView, viewOfSearch, type ResultsView } from './results-view';
import { HealthNotes, SrmBanner, UnitsTable } from './units-health';

/** A refresh not answered by then is given up on, and said so. */
export const REFRESH_GIVE_UP_MS = 60_000;

export interface ResultsTabProps {
  testId: string;
  app: string | null;
  /** Whether the page shows the live config's test (a 404 then means no results offered). */
  live: boolean;
  /** Given when a promote may be offered: opens the page's promote dialog for `variant`. */
  onPromote: ((variant: string) => void) | undefined;
}

function phaseWords(phase: ExperimentPhase): string {
  const from = phase.started_at.slice(0, 10);
  const to = phase.ended_at === null ? 'now' : phase.ended_at.slice(0, 10);
  return `Phase ${phase.number} (${from} to ${to})`;
}

/**
 * A refresh: 202 at once, then the results are read again until `computed_at` moves past
 * the one shown when Refresh was pressed (or REFRESH_GIVE_UP_MS passes).
 */
function useRefresh(testId: string) {
  const mutation = useRefreshResults(testId);
  const [from, setFrom] = useState<{ computedAt: string | null } | null>(null);
  const [gaveUp, setGaveUp] = useState(false);
  const awaiting = (results: ExperimentResults | null | undefined) =>
    from !== null && !gaveUp && (results === undefined || results?.computed_at === from.computedAt);

  const start = (current: string | null) => {
    setGaveUp(false);
    mutation.mutate(undefined, { onSuccess: () => setFrom({ computedAt: current }) });
  };
  return { mutation, from, gaveUp, giveUp: setGaveUp, awaiting, start };
}

export default function ResultsTab({ testId, app, live, onPromote }: ResultsTabProps) {
  const [search, setSearch] = useSearchParams();
  const view = viewOfSearch(search);
  const query = queryOfView(view);
  const refresh = useRefresh(testId);
  const results = useResults(testId, query, refresh.awaiting);
  const waiting = refresh.from !== null && refresh.awaiting(results.data);
  const arrived = refresh.from !== null && !waiting && !refresh.gaveUp;
  const { giveUp } = refresh;
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => giveUp(true), REFRESH_GIVE_UP_MS);
    return () => clearTimeout(timer);
  }, [waiting, giveUp]);
  const change = (next: Partial<ResultsView>) =>
    setSearch(searchWithView(search, next), { replace: true, preventScrollReset: true });

  if (results.isPending) return <Spinner label="Loading the results…" />;
  if (results.isError) {
    return (
      <div className="alert alert-error" role="alert">
        <p>The results could not be loaded. {describeError(results.error)}</p>
        <Button onClick={() => void results.refetch()}>Try again</Button>
      </div>
    );
  }
  if (results.data === null) {
    return (
      <p>
        {live
          ? 'This server does not compute the results of A/B tests.'
          : `There are no results for ${testId}: it has not run in the live config.`}
      </p>
    );
  }
  const data = results.data;

  return (
    <div className="results" aria-busy={results.isPlaceholderData || undefined}>
      <ResultsSummary
        results={data}
        view={view}
        onChange={change}
        refresh={
          <RefreshControl
            computedAt={data.computed_at}
            pending={refresh.mutation.isPending || waiting}
            outcome={arrived ? 'arrived' : refresh.gaveUp ? 'gave-up' : null}
            error={refresh.mutation.error}
            onRefresh={() => refresh.start(data.computed_at)}
          />
        }
      />
      {data.computed_at === null ? (
        <section className="empty-state" aria-label="Not computed yet">
          <p>
            <strong>The results have not been computed yet.</strong> The service computes them every
            few minutes once the test has exposures; Refresh asks for them now.
          </p>
        </section>
      ) : (
        <ComputedResults
          testId={testId}
          app={app}
          results={data}
          view={view}
          onChange={change}
          onPromote={onPromote}
        />
      )}
    </div>
  );
}

function ResultsSummary({
  results,
  view,
  onChange,
  refresh,
}: {
  results: ExperimentResults;
  view: ResultsView;
  onChange: (change: Partial<ResultsView>) => void;
  refresh: ReactNode;
}) {
  const phaseId = useId();
  const { test, phase, phases } = results;
  return (
    <section className="card" aria-label="About the results">
      <div className="results-heading">
        <h2>Results</h2>
        {results.simulated && (
          <span className="status status-simulated" title="These events were made up (the demo)">
            Simulated
          </span>
        )}
      </div>
      {results.simulated && (
        <p className="muted">These results come from simulated events, not from real units.</p>
      )}
      <dl className="details">
        <dt>Status</dt>
        <dd>
          {test.status === 'missing' ? 'No longer in the live config' : statusLabel(test.status)}
        </dd>
        <dt>Started</dt>
        <dd>
          <Time value={test.started_at} empty="—" />
        </dd>
        <dt>Ended</dt>
        <dd>
          <Time value={test.ended_at} empty="—" />
        </dd>
        <dt>Phase</dt>
        <dd>
          {phases.length > 1 ? (
            <>
              <label htmlFor={phaseId} className="visually-hidden">
                Phase
              </label>
              <select
                id={phaseId}
                className="phase-select"
                value={String(phase.number)}
                onChange={(event) => {
                  const last = phases.at(-1)?.number;
                  const chosen = event.target.value;
                  onChange({ phase: chosen === String(last) ? undefined : chosen });
                }}
              >
                {phases.map((candidate) => (
                  <option key={candidate.number} value={String(candidate.number)}>
                    {phaseWords(candidate)}
                    {candidate.ended_at === null ? ', current' : ''}
                  </option>
                ))}
              </select>
              <p className="field-hint">
                A new phase starts when the weights change; each is judged on its own.
              </p>
            </>
          ) : (
            phaseWords(phase)
          )}
        </dd>
        <dt>Computed at</dt>
        <dd>{refresh}</dd>
      </dl>
      {view.phase !== undefined && phase.number !== Number(view.phase) && (
        <p className="muted">Showing phase {phase.number}.</p>
      )}
    </section>
  );
}

function RefreshControl({
  computedAt,
  pending,
  outcome,
  error,
  onRefresh,
}: {
  computedAt: string | null;
  pending: boolean;
  outcome: 'arrived' | 'gave-up' | null;
  error: unknown;
  onRefresh: () => void;
}) {
  return (
    <div className="refresh-row">
      <Time value={computedAt} empty="Not computed yet" />
      <Button onClick={onRefresh} pending={pending}>
        Refresh
      </Button>
      <span role="status" className="muted">
        {pending
          ? 'Computing the results…'
          : outcome === 'arrived'
            ? 'The results are up to date.'
            : outcome === 'gave-up'
              ? 'The results are still being computed. Refresh again in a minute.'
              : ''}
      </span>
      {error != null && (
        <p role="alert" className="alert alert-error">
          The results were not refreshed. {describeError(error)}
        </p>
      )}
    </div>
  );
}

function ComputedResults({
  testId,
  app,
  results,
  view,
  onChange,
  onPromote,
}: {
  testId: string;
  app: string | null;
  results: ExperimentResults;
  view: ResultsView;
  onChange: (change: Partial<ResultsView>) => void;
  onPromote: ((variant: string) => void) | undefined;
}) {
  const exposed = results.units.some((row) => row.units > 0);
  if (!exposed) return <NoExposures testId={testId} app={app} results={results} />;
  return (
    <>
      <section className="card" aria-label="Units and health">
        <h2>Units</h2>
        <SrmBanner results={results} />
        <UnitsTable results={results} />
        <HealthNotes results={results} />
      </section>
      <section className="card" aria-label="Metrics">
        <h2>Metrics</h2>
        {results.metrics.length === 0 ? (
          <div className="empty-state">
            <p>
              <strong>
                Name goal metrics in the test&rsquo;s <code>metrics:</code> list
              </strong>{' '}
              (the first is the primary goal), and any guardrails in <code>guardrails:</code>, by
              the ids of the <Link to="/metrics">Metrics page</Link>.
            </p>
          </div>
        ) : (
          <>
            <EngineSwitch view={view} onChange={onChange} />
            <MetricsTable results={results} onPromote={onPromote} />
            <LiftOverTime testId={testId} query={queryOfView(view)} results={results} />
          </>
        )}
      </section>
    </>
  );
}

function NoExposures({
  testId,
  app,
  results,
}: {
  testId: string;
  app: string | null;
  results: ExperimentResults;
}) {
  const codeId = useId();
  const connection = useConnection();
  const snippet = experimentSnippet({
    baseUrl: absoluteBaseUrl(connection?.baseUrl ?? '/', window.location.origin),
    app,
    test: testId,
    variant: results.units[1]?.variant,
  });
  return (
    <section className="card empty-state" aria-label="No exposures yet">
      <h2>
        No exposures yet: is the app calling <code>client.variant()</code>?
      </h2>
      <p>
        Each call of <code>client.variant(test, unit)</code> in the app logs an exposure, and from
        then on the unit&rsquo;s events count for the test&rsquo;s metrics. Client keys are made on
        the <Link to="/delivery">Delivery page</Link>.
      </p>
      <div className="client-snippet">
        <pre id={codeId} tabIndex={0} aria-label="Snippet for this test">
          <code>{snippet}</code>
        </pre>
        <Button onClick={() => void copyToClipboard(snippet, 'Snippet')} aria-controls={codeId}>
          Copy snippet
        </Button>
      </div>
    </section>
  );
}
