/**
 * Simulated results for the demo: made-up exposures and events of a running test over the
 * past days, counted day by day as the background job would have, in a phase marked as
 * simulated so that the results page says so. Deterministic: the same demo every time.
 */
import { variantOf } from '../../../contract/assignment';
import type { StoredEvent } from '../../store/experiments/experiment-events';
import type { Store } from '../../store/store';
import type { LiveTest } from './live-tests';
import type { ResultsComputation } from './results-computation';

const DAY_MS = 86_400_000;
const BATCH = 500;

/** What the made-up units do, by variant: how often they buy, and how much. */
export interface SimulatedBehaviour {
  readonly conversion: Readonly<Record<string, number>>;
  readonly meanOrder: number;
  /** How often a unit meets an error, whatever its variant. */
  readonly errors: number;
}

/** mulberry32: a small seeded generator, so the demo's numbers are the same on each start. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export async function seedSimulatedResults(input: {
  readonly store: Store;
  readonly computation: ResultsComputation;
  readonly accountId: string;
  readonly test: LiveTest;
  readonly now: Date;
  readonly days: number;
  readonly unitsPerDay: number;
  readonly behaviour: SimulatedBehaviour;
}): Promise<void> {
  const { store, computation, accountId, test, now, days, unitsPerDay, behaviour } = input;
  const start = now.getTime() - days * DAY_MS;
  const weights = Object.fromEntries(test.variants.map((variant) => [variant.id, variant.weight]));
  const phases = await store.syncPhases(
    accountId,
    [{ testId: test.id, weights }],
    new Date(start).toISOString(),
  );
  const phase = phases.get(test.id) ?? 1;
  await store.markSimulated(accountId, test.id, phase);
  const random = seededRandom(20_261_101);
  const assignable = { id: test.id, status: 'running', variants: test.variants };
  const events: StoredEvent[] = [];
  for (let day = 0; day < days; day += 1) {
    for (let index = 0; index < unitsPerDay; index += 1) {
      const unit = `simulated-${day}-${index}`;
      const variant = variantOf(assignable, unit)?.id;
      if (variant === undefined) continue;
      const atMs = Math.floor(start + (day + random()) * DAY_MS);
      const id = `simulated-${unit}`;
      events.push({
        kind: 'exposure',
        id,
        test: test.id,
        phase,
        variant,
        assigned: variant,
        unit,
        atMs,
      });
      if (random() < (behaviour.conversion[variant] ?? 0)) {
        const value = Math.round(behaviour.meanOrder * (0.5 + random()) * 100) / 100;
        const at = atMs + Math.floor(random() * 3_600_000);
        events.push({
          kind: 'metric',
          id: `${id}-purchase`,
          event: 'purchase',
          unit,
          value,
          atMs: at,
        });
      }
      if (random() < behaviour.errors) {
        const at = atMs + Math.floor(random() * 600_000);
        events.push({
          kind: 'metric',
          id: `${id}-error`,
          event: 'checkout_error',
          unit,
          value: 1,
          atMs: at,
        });
      }
    }
  }
  for (let offset = 0; offset < events.length; offset += BATCH) {
    await store.ingestEvents(accountId, events.slice(offset, offset + BATCH), now.getTime());
  }
  // Each past day as it stood at its end, then now: the lift over time has its days.
  for (let day = 1; day <= days; day += 1) {
    const asOf = new Date(Math.min(start + day * DAY_MS - 1, now.getTime()));
    await computation.compute({ accountId, testId: test.id, phase }, asOf);
  }
}
