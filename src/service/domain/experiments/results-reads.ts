/**
 * `GET /ab-tests/{id}/results`, `…/timeseries` and `POST …/refresh`: answers built from the
 * sums the background job kept, with the engine, sequential and correction the reader
 * chose applied to them (microseconds), never by reading events on a request's path.
 */
import type {
  Correction,
  Engine,
  ExperimentPhase,
  ExperimentResults,
  ExperimentTimeseries,
  ResultsMetric,
  ResultsQuery,
} from '../../../contract/experiments';
import {
  analyzeTest,
  multipleExposuresWarning,
  sampleRatioMismatch,
  type MetricAnalysis,
} from '../../experiments/stats';
import type { PhaseRow } from '../../store/experiments/experiment-events';
import type { Principal } from '../../store/records';
import type { Store } from '../../store/store';
import type { Clock } from '../clock';
import { Refused } from '../refusals';
import type { LiveTest, LiveTestsReader } from './live-tests';
import { namedMetrics } from './results-computation';
import { EMPTY_SUMS, parseSums, type ResultsSums } from './results-sums';

const UNKNOWN_METRIC =
  'No metric has this id: define it on the Metrics page, or remove it from the test.';
const NOT_YET = 'Not computed yet: the results are computed within a few minutes of the start.';

interface Choice {
  readonly engine: Engine;
  readonly sequential: boolean;
  readonly correction: Correction;
}

function choiceOf(query: ResultsQuery): Choice {
  const engine = query.engine ?? 'bayesian';
  // Sequential bounds and corrections are frequentist ideas: the Bayesian engine has neither.
  return {
    engine,
    sequential: engine === 'frequentist' && query.sequential === 'true',
    correction: engine === 'frequentist' ? (query.correction ?? 'none') : 'none',
  };
}

export class ExperimentResultsReads {
  constructor(
    private readonly deps: {
      readonly store: Store;
      readonly clock: Clock;
      readonly liveTests: LiveTestsReader;
      /** Tells the background job a refresh waits (this instance's job, if it runs one). */
      readonly wakeJob: () => void;
    },
  ) {}

  async results(
    principal: Principal,
    testId: string,
    query: ResultsQuery,
  ): Promise<ExperimentResults> {
    const accountId = principal.account.id;
    const { phases, phase, live } = await this.phaseOf(accountId, testId, query.phase);
    const row = await this.deps.store.latestResults(accountId, testId, phase.number);
    const sums = row ? parseSums(row.sums) : emptySums(phase, live);
    const choice = choiceOf(query);
    const variantIds = Object.keys(phase.weights);
    const units = variantIds.map((id) => sums.units[id] ?? 0);
    const srm = sampleRatioMismatch(
      units,
      variantIds.map((id) => phase.weights[id] ?? 0),
    );
    const exposed = units.reduce((total, count) => total + count, 0) + sums.multipleExposures;
    return {
      test: {
        id: testId,
        app: live?.app ?? null,
        status: live?.status ?? 'missing',
        started_at: live?.startedAt ?? null,
        ended_at: live?.endedAt ?? null,
      },
      phase: phaseAnswer(phase),
      phases: phases.map(phaseAnswer),
      computed_at: row?.computedAt ?? null,
      ...choice,
      simulated: sums.simulated,
      units: variantIds.map((variant, index) => ({
        variant,
        units: units[index] ?? 0,
        expected_share: (phase.weights[variant] ?? 0) / 100,
      })),
      health: {
        srm_p: srm.p,
        srm_warning: srm.warning,
        multiple_exposures: sums.multipleExposures,
        multiple_exposures_warning: multipleExposuresWarning(sums.multipleExposures, exposed),
        mismatches: sums.mismatches,
      },
      metrics: metricsAnswer(sums, variantIds, choice, row !== undefined),
    };
  }

  async timeseries(
    principal: Principal,
    testId: string,
    query: ResultsQuery,
  ): Promise<ExperimentTimeseries> {
    const accountId = principal.account.id;
    const { phase } = await this.phaseOf(accountId, testId, query.phase);
    const rows = await this.deps.store.resultsOfPhase(accountId, testId, phase.number);
    const choice = choiceOf(query);
    const variantIds = Object.keys(phase.weights);
    const days = rows.map((row) => ({ day: row.day, sums: parseSums(row.sums) }));
    const latest = days.at(-1)?.sums;
    const analyses = days.map(({ sums }) => analyzed(sums, variantIds, choice));
    return {
      test: testId,
      phase: phase.number,
      engine: choice.engine,
      metrics: (latest?.metrics ?? []).map((metric) => ({
        id: metric.id,
        variants: variantIds.slice(1).map((variantId) => ({
          id: variantId,
          points: days.map(({ day, sums }, dayIndex) => {
            const row = analyses[dayIndex]?.find((analysis) => analysis.id === metric.id)?.variants[
              variantIds.indexOf(variantId)
            ];
            return { date: day, units: sums.units[variantId] ?? 0, lift: row?.lift ?? null };
          }),
        })),
      })),
    };
  }

  async refresh(
    principal: Principal,
    testId: string,
  ): Promise<{ test: string; requested_at: string; computed_at: string | null }> {
    const accountId = principal.account.id;
    const { phase } = await this.phaseOf(accountId, testId, undefined);
    const requestedAt = this.deps.clock().toISOString();
    await this.deps.store.requestRefresh(accountId, testId, requestedAt);
    this.deps.wakeJob();
    const row = await this.deps.store.latestResults(accountId, testId, phase.number);
    return { test: testId, requested_at: requestedAt, computed_at: row?.computedAt ?? null };
  }

  private async phaseOf(
    accountId: string,
    testId: string,
    asked: string | undefined,
  ): Promise<{ phases: PhaseRow[]; phase: PhaseRow; live: LiveTest | undefined }> {
    // The live config first: a publish not read yet starts its phase before they are listed.
    const live = (await this.deps.liveTests.current(accountId)).tests.get(testId);
    const phases = await this.deps.store.phasesOfTest(accountId, testId);
    const number = asked === undefined ? phases.at(-1)?.number : Number(asked);
    const phase = phases.find((candidate) => candidate.number === number);
    if (phase) return { phases, phase, live };
    if (phases.length > 0)
      throw new Refused('not_found', `The A/B test ${testId} has no phase ${asked ?? ''}`.trim());
    throw new Refused(
      'not_found',
      live
        ? `The A/B test ${testId} has not run yet: its results start when it starts`
        : `No A/B test ${testId} has run in this account`,
    );
  }
}

function phaseAnswer(phase: PhaseRow): ExperimentPhase {
  return {
    number: phase.number,
    started_at: phase.startedAt,
    ended_at: phase.endedAt,
    weights: { ...phase.weights },
  };
}

/** Before the first computation: every named metric with nothing counted yet. */
function emptySums(phase: PhaseRow, live: LiveTest | undefined): ResultsSums {
  const variantIds = Object.keys(phase.weights);
  return {
    units: Object.fromEntries(variantIds.map((id) => [id, 0])),
    multipleExposures: 0,
    mismatches: 0,
    simulated: false,
    metrics: namedMetrics(live?.metrics ?? [], live?.guardrails ?? []).map(({ id, role }) => ({
      id,
      role,
      name: null,
      kind: null,
      inverse: false,
      variants: Object.fromEntries(variantIds.map((variant) => [variant, EMPTY_SUMS])),
    })),
  };
}

function analyzed(
  sums: ResultsSums,
  variantIds: readonly string[],
  choice: Choice,
): MetricAnalysis[] {
  return analyzeTest({
    metrics: sums.metrics.flatMap((metric) =>
      metric.kind === null
        ? []
        : [
            {
              id: metric.id,
              role: metric.role,
              kind: metric.kind,
              inverse: metric.inverse,
              variants: variantIds.map((id) => metric.variants[id] ?? EMPTY_SUMS),
            },
          ],
    ),
    ...choice,
  });
}

function metricsAnswer(
  sums: ResultsSums,
  variantIds: readonly string[],
  choice: Choice,
  computed: boolean,
): ResultsMetric[] {
  const analyses = new Map(
    analyzed(sums, variantIds, choice).map((analysis) => [analysis.id, analysis]),
  );
  return sums.metrics.map((metric) => {
    const analysis = analyses.get(metric.id);
    return {
      id: metric.id,
      name: metric.name,
      kind: metric.kind,
      role: metric.role,
      inverse: metric.inverse,
      variants: variantIds.map((variantId, index) => {
        const units = metric.variants[variantId]?.n ?? 0;
        const row = analysis?.variants[index];
        if (row) return { id: variantId, units, ...row };
        if (index === 0) return { id: variantId, units, value: null, verdict: 'control' as const };
        return computed
          ? {
              id: variantId,
              units,
              value: null,
              verdict: 'no_result' as const,
              note: UNKNOWN_METRIC,
            }
          : {
              id: variantId,
              units,
              value: null,
              verdict: 'not_enough_data' as const,
              note: NOT_YET,
            };
      }),
    };
  });
}
