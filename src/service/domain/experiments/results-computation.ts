/**
 * One computation of a phase's results: every exposed unit of the phase, a page at a time,
 * with each metric's events inside the unit's window, summed per variant. Pages keep each
 * read short, and a turn of the event loop between them keeps the API answering while a
 * test with a million units is counted.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { MetricRole } from '../../../contract/experiments';
import type { Store } from '../../store/store';
import type { Clock } from '../clock';
import type { LiveTestsReader } from './live-tests';
import {
  EMPTY_SUMS,
  unitValue,
  type MetricDefinition,
  type MetricSums,
  type ResultsSums,
  type Sums,
} from './results-sums';

const HOUR_MS = 3_600_000;
/** Units a page: a few milliseconds of reading each. */
export const UNIT_PAGE = 5_000;

export interface PhasePlace {
  readonly accountId: string;
  readonly testId: string;
  readonly phase: number;
}

export class ResultsComputation {
  constructor(
    private readonly deps: {
      readonly store: Store;
      readonly clock: Clock;
      readonly liveTests: LiveTestsReader;
      readonly metricsOf: (accountId: string) => Promise<readonly MetricDefinition[]>;
      readonly unitPage?: number;
    },
  ) {}

  /**
   * Computes the phase's sums and keeps them as the row of the day they stand for; returns
   * them. `asOf`: the sums as they stood then (the demo's past days); default now.
   */
  async compute(place: PhasePlace, asOf?: Date): Promise<ResultsSums> {
    const { store, clock, liveTests } = this.deps;
    const startedAt = clock().toISOString();
    const asOfMs = (asOf ?? clock()).getTime();
    const phases = await store.phasesOfTest(place.accountId, place.testId);
    const phase = phases.find((candidate) => candidate.number === place.phase);
    const variantIds = Object.keys(phase?.weights ?? {});
    const test = (await liveTests.current(place.accountId)).tests.get(place.testId);
    const definitions = new Map(
      (await this.deps.metricsOf(place.accountId)).map((metric) => [metric.id, metric]),
    );
    const named = namedMetrics(test?.metrics ?? [], test?.guardrails ?? []);
    const counted = named.flatMap(({ id }) => {
      const definition = definitions.get(id);
      return definition ? [definition] : [];
    });

    const units = Object.fromEntries(variantIds.map((id) => [id, 0]));
    const sums = counted.map(() => new Map<string, Sums>());
    let multipleExposures = 0;
    let after = '';
    for (;;) {
      const page = await store.unitPage(
        { ...place, asOfMs },
        counted.map((metric) => ({ event: metric.event, windowMs: metric.window_hours * HOUR_MS })),
        after,
        this.deps.unitPage ?? UNIT_PAGE,
      );
      for (const row of page) {
        if (row.multiple) {
          multipleExposures += 1;
          continue;
        }
        units[row.variant] = (units[row.variant] ?? 0) + 1;
        counted.forEach((metric, index) => {
          const x = unitValue(metric, row.counts[index] ?? 0, row.sums[index] ?? 0);
          const byVariant = sums[index] as Map<string, Sums>;
          const held = byVariant.get(row.variant) ?? EMPTY_SUMS;
          byVariant.set(row.variant, {
            n: held.n + 1,
            sum: held.sum + x,
            sumSquares: held.sumSquares + x * x,
          });
        });
      }
      const last = page.at(-1);
      if (!last || page.length < (this.deps.unitPage ?? UNIT_PAGE)) break;
      after = last.unit;
      await nextTurn();
    }

    const metrics: MetricSums[] = named.map(({ id, role }) => {
      const definition = definitions.get(id);
      const index = definition ? counted.indexOf(definition) : -1;
      const byVariant = sums[index];
      return {
        id,
        role,
        name: definition?.name ?? null,
        kind: definition?.kind ?? null,
        inverse: definition?.inverse ?? false,
        variants: Object.fromEntries(
          variantIds.map((variant) => [variant, byVariant?.get(variant) ?? EMPTY_SUMS]),
        ),
      };
    });
    const result: ResultsSums = {
      units,
      multipleExposures,
      mismatches: await store.mismatchesOf(place.accountId, place.testId, place.phase),
      metrics,
      simulated: phase?.simulated ?? false,
    };
    const computedAt = asOf ? new Date(asOfMs).toISOString() : clock().toISOString();
    await store.saveResults(
      place.accountId,
      place.testId,
      {
        phase: place.phase,
        day: computedAt.slice(0, 10),
        sums: JSON.stringify(result),
        computedAt,
      },
      startedAt,
    );
    return result;
  }
}

/** Goals then guardrails, each id once (a goal named as a guardrail too stays a goal). */
export function namedMetrics(
  goals: readonly string[],
  guardrails: readonly string[],
): { id: string; role: MetricRole }[] {
  const seen = new Set<string>();
  const named: { id: string; role: MetricRole }[] = [];
  for (const [ids, role] of [
    [goals, 'goal'],
    [guardrails, 'guardrail'],
  ] as const) {
    for (const id of ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      named.push({ id, role });
    }
  }
  return named;
}
