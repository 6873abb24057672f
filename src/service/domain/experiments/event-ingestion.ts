/**
 * Events in (`POST /delivery/{client_key}/events`): each event of a batch is checked on its
 * own, exposures are placed in their test's current phase and checked against assignment,
 * and the batch is stored in one transaction. A key's events are bounded per second on each
 * instance, so that one fleet cannot take every write the database has.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { variantOf } from '../../../contract/assignment';
import {
  MAX_EVENT_AGE_DAYS,
  MAX_EVENT_AHEAD_MINUTES,
  experimentEventSchema,
  type EventBatchAnswer,
  type EventRejection,
} from '../../../contract/experiments';
import type { StoredEvent } from '../../store/experiments/experiment-events';
import type { DeliveryKeyLookup } from '../../store/records';
import type { Store } from '../../store/store';
import type { Clock } from '../clock';
import { keyCanRead } from '../client-keys';
import { Refused } from '../refusals';
import type { LiveExperiments, LiveTestsReader } from './live-tests';

const MINUTE_MS = 60_000;
/** Events written per transaction: about a millisecond of SQLite's time. */
const WRITE_CHUNK = 100;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface EventBudgetSettings {
  /** Events a second one client key may send to one instance, on average; 0: no bound. */
  readonly perSecond: number;
  /** How many it may send at once, above the average. */
  readonly burst: number;
}

/** 20,000 events a second per key and instance: twice what one instance ingests (bench). */
export const DEFAULT_EVENT_BUDGET: EventBudgetSettings = { perSecond: 20_000, burst: 40_000 };

/** A token bucket per client key; the oldest keys are forgotten past a bound. */
export class EventBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly settings: EventBudgetSettings,
    private readonly clock: Clock,
    private readonly remembered = 10_000,
  ) {}

  /** Takes `events` from the key's budget; the seconds to wait when it holds too few. */
  take(key: string, events: number): number | undefined {
    const { perSecond, burst } = this.settings;
    if (perSecond === 0) return undefined;
    const now = this.clock().getTime();
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    const tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    this.buckets.delete(key);
    if (this.buckets.size >= this.remembered)
      this.buckets.delete(this.buckets.keys().next().value ?? '');
    if (tokens < events) {
      this.buckets.set(key, { tokens, at: now });
      return Math.max(1, Math.ceil((events - tokens) / perSecond));
    }
    this.buckets.set(key, { tokens: tokens - events, at: now });
    return undefined;
  }
}

type Checked = { readonly event: StoredEvent } | { readonly rejected: EventRejection };

export class EventIngestion {
  constructor(
    private readonly deps: {
      readonly store: Store;
      readonly clock: Clock;
      readonly liveTests: LiveTestsReader;
      readonly budget: EventBudget;
    },
  ) {}

  /** The batch's answer; undefined for an unknown or revoked key (the caller's 404). */
  async ingest(
    clientKey: string,
    events: readonly unknown[],
  ): Promise<EventBatchAnswer | undefined> {
    const { store, clock, liveTests, budget } = this.deps;
    // Arrival, before the live config is read: a phase dated from a publish holds what arrives
    // after it (docs/experiments.md, Phases).
    const now = clock().getTime();
    // The delivery reads' lookup: memoised where the store has one, a revoke seen at once.
    const found = store.findDeliveryKeyNow
      ? store.findDeliveryKeyNow(clientKey)
      : await store.findDeliveryKey(clientKey);
    if (!found || found.key.revoked_at !== null) return undefined;
    const wait = budget.take(found.key.id, events.length);
    if (wait !== undefined)
      throw new Refused('too_many_tries', 'This client key sends more events than allowed', {
        retryAfterSeconds: wait,
      });
    const live = await liveTests.of(found.key.account_id, found.live);
    const accepted: StoredEvent[] = [];
    const rejected: EventBatchAnswer['rejected'] = [];
    events.forEach((raw, index) => {
      const checked = checkEvent(raw, { found, live, now });
      if ('rejected' in checked) rejected.push({ index, code: checked.rejected });
      else accepted.push(checked.event);
    });
    let stored = 0;
    let duplicates = 0;
    // A short transaction per chunk, a turn of the event loop between: other requests are
    // answered while batches pour in. A batch need not be atomic: its ids make a retry of a
    // half-stored one count each event once.
    for (let offset = 0; offset < accepted.length; offset += WRITE_CHUNK) {
      if (offset > 0) await nextTurn();
      const chunk = accepted.slice(offset, offset + WRITE_CHUNK);
      const counts = await store.ingestEvents(found.key.account_id, chunk, now);
      stored += counts.accepted;
      duplicates += counts.duplicates;
    }
    return { accepted: stored, duplicates, rejected };
  }
}

function checkEvent(
  raw: unknown,
  context: {
    readonly found: DeliveryKeyLookup;
    readonly live: LiveExperiments;
    readonly now: number;
  },
): Checked {
  const parsed = experimentEventSchema.safeParse(raw);
  if (!parsed.success) return { rejected: 'invalid' };
  const event = parsed.data;
  const atMs = Date.parse(event.at);
  if (atMs < context.now - MAX_EVENT_AGE_DAYS * DAY_MS) return { rejected: 'too_old' };
  if (atMs > context.now + MAX_EVENT_AHEAD_MINUTES * MINUTE_MS) return { rejected: 'in_future' };
  if (event.kind === 'metric') {
    const { id, unit } = event;
    return {
      event: { kind: 'metric', id, event: event.event, unit, value: event.value ?? 1, atMs },
    };
  }
  const test = context.live.tests.get(event.test);
  const phase = context.live.phases.get(event.test);
  // A test of an app outside the key's scope is as unknown as one that does not exist.
  if (
    test?.status !== 'running' ||
    phase === undefined ||
    test.app === null ||
    !keyCanRead(context.found.key, test.app)
  )
    return { rejected: 'not_running' };
  if (!test.variants.some((variant) => variant.id === event.variant))
    return { rejected: 'unknown_variant' };
  const assigned = variantOf(
    { id: test.id, status: 'running', variants: test.variants },
    event.unit,
  );
  // Weights that leave a bucket uncovered (never in a valid config): nothing to compare with.
  if (!assigned) return { rejected: 'unknown_variant' };
  return {
    event: {
      kind: 'exposure',
      id: event.id,
      test: test.id,
      phase,
      variant: event.variant,
      assigned: assigned.id,
      unit: event.unit,
      atMs,
    },
  };
}
