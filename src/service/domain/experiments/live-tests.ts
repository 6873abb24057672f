/**
 * The A/B tests of an account's live config, as events and results need them, with each
 * running test's current phase. Read once per live config (id, revision, since when it is
 * live) and process, and the phases brought in line on that first read: a publish that
 * changes a running test's weights starts its next phase, dated from the publish, before
 * the first exposure under the new weights is taken.
 */
import { readConfigContents } from '../../../configs/config-contents';
import type { LiveConfigStamp } from '../../../configs/delivery-view';
import type { LiveStamp } from '../../store/records';
import type { Store } from '../../store/store';

export interface LiveTest {
  readonly id: string;
  readonly app: string | null;
  readonly status: string | null;
  readonly variants: readonly { readonly id: string; readonly weight: number }[];
  readonly metrics: readonly string[];
  readonly guardrails: readonly string[];
  readonly startedAt: string | null;
  readonly endedAt: string | null;
}

export interface LiveExperiments {
  readonly tests: ReadonlyMap<string, LiveTest>;
  /** Each running test's current phase number. */
  readonly phases: ReadonlyMap<string, number>;
}

const NONE: LiveExperiments = { tests: new Map(), phases: new Map() };
/** Live configs remembered per process: one per account that sends events, bounded. */
const REMEMBERED = 256;

export class LiveTestsReader {
  private readonly known = new Map<string, Promise<LiveExperiments>>();
  /** The tests alone, read apart: naming them must not start phases (see `currentTests`). */
  private readonly knownTests = new Map<string, Promise<ReadonlyMap<string, LiveTest>>>();

  constructor(
    private readonly deps: {
      readonly store: Store;
      /** The live config's data, parsed once for delivery and experiments alike. */
      readonly configData: (accountId: string, stamp: LiveConfigStamp) => Promise<unknown>;
    },
  ) {}

  /** The live config's tests and phases; none when the account has no live config. */
  of(accountId: string, stamp: LiveStamp | undefined): Promise<LiveExperiments> {
    if (!stamp) return Promise.resolve(NONE);
    // A rollback makes an earlier config live again: its new time tells it from the last one.
    const key = `${keyOf(accountId, stamp)}\u0000${stamp.live_since}`;
    return remembered(this.known, key, () => this.read(accountId, stamp));
  }

  /** The account's live tests now (the results job and reads). */
  async current(accountId: string): Promise<LiveExperiments> {
    return this.of(accountId, await this.deps.store.getLiveStamp(accountId));
  }

  /**
   * The account's live tests now, phases untouched: for what only names them (a metric's
   * users), which need no write (the demo account dates its phase in the past after naming it).
   */
  async currentTests(accountId: string): Promise<ReadonlyMap<string, LiveTest>> {
    const stamp = await this.deps.store.getLiveStamp(accountId);
    return stamp ? this.testsOf(accountId, stamp) : NONE.tests;
  }

  private testsOf(
    accountId: string,
    stamp: LiveConfigStamp,
  ): Promise<ReadonlyMap<string, LiveTest>> {
    return remembered(this.knownTests, keyOf(accountId, stamp), async () =>
      liveTestsIn(await this.deps.configData(accountId, stamp)),
    );
  }

  private async read(accountId: string, stamp: LiveStamp): Promise<LiveExperiments> {
    const tests = await this.testsOf(accountId, stamp);
    const running = [...tests.values()]
      .filter((test) => test.status === 'running')
      .map((test) => ({
        testId: test.id,
        weights: Object.fromEntries(test.variants.map((variant) => [variant.id, variant.weight])),
      }));
    // Dated from when the config went live, not from this read: every instance, now or after
    // a restart, dates a phase alike, and a test first read long after its publish starts then.
    const phases = await this.deps.store.syncPhases(accountId, running, stamp.live_since);
    return { tests, phases };
  }
}

function keyOf(accountId: string, stamp: LiveConfigStamp): string {
  return `${accountId}\u0000${stamp.id}\u0000${stamp.revision}`;
}

/** The reading kept under `key`, or `read()` kept there; the oldest forgotten past a bound. */
function remembered<T>(
  known: Map<string, Promise<T>>,
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  const kept = known.get(key);
  if (kept) return kept;
  const reading = read();
  if (known.size >= REMEMBERED) known.delete(known.keys().next().value ?? '');
  known.set(key, reading);
  reading.catch(() => known.delete(key));
  return reading;
}

/** The A/B tests of a config's data, by id (the first of a repeated id). */
export function liveTestsIn(data: unknown): Map<string, LiveTest> {
  const tests = new Map<string, LiveTest>();
  for (const test of readConfigContents(data).abTests) {
    if (tests.has(test.id)) continue;
    tests.set(test.id, {
      id: test.id,
      app: test.app,
      status: test.status,
      variants: test.variants.map((variant) => ({ id: variant.id, weight: variant.weight ?? 0 })),
      metrics: test.metrics,
      guardrails: test.guardrails,
      startedAt: test.startedAt,
      endedAt: test.endedAt,
    });
  }
  return tests;
}
