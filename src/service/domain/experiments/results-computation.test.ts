/**
 * The results job's counting on a real store: units read a page at a time (a page of 3 here)
 * count each unit once, and the job computes what is stale, once, on one instance at a time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHOP_YAML, manualClock } from '../../testing/api';
import { createAccount } from '../../testing/made-at';
import { openTestStore, type TestStore } from '../../testing/test-store';
import { isStale, ResultsJob } from '../../experiments/results-job';
import type { StoredEvent } from '../../store/experiments/experiment-events';
import { liveConfigData } from '../live-config-data';
import { LiveTestsReader } from './live-tests';
import { ResultsComputation } from './results-computation';
import { parseSums } from './results-sums';

const NOW = '2026-11-22T10:00:00.000Z';
const YAML = SHOP_YAML.replace(
  '    started_at: 2026-11-01T09:00:00.000Z\n',
  '    started_at: 2026-11-01T09:00:00.000Z\n    metrics: [purchases]\n',
);
let database: TestStore;
let accountId: string;
const clock = manualClock(NOW);

beforeEach(async () => {
  database = await openTestStore();
  accountId = (
    await createAccount(database.store, {
      name: 'Shop',
      ownerEmail: 'owner@example.com',
      initialYaml: YAML,
      now: new Date(NOW),
    })
  ).account_id;
});
afterEach(async () => {
  await database.dispose();
});

function computation(unitPage: number) {
  const { store } = database;
  const liveTests = new LiveTestsReader({
    store,
    configData: (account, stamp) => liveConfigData(store, account, stamp),
  });
  return {
    liveTests,
    computation: new ResultsComputation({
      store,
      clock: clock.clock,
      liveTests,
      unitPage,
      metricsOf: async () => [
        {
          id: 'purchases',
          name: 'Purchases',
          kind: 'binomial',
          event: 'purchase',
          window_hours: 72,
          inverse: false,
          cap: null,
        },
      ],
    }),
  };
}

function exposures(units: readonly string[]): StoredEvent[] {
  return units.map((unit) => ({
    kind: 'exposure',
    id: `x-${unit}`,
    test: 'bigger-button',
    phase: 1,
    variant: 'control',
    assigned: 'control',
    unit,
    atMs: Date.parse(NOW),
  }));
}

describe('counting exposed units a page at a time', () => {
  it('counts each of 10 units once with pages of 3, whatever the page boundaries', async () => {
    const { liveTests, computation: counting } = computation(3);
    await liveTests.current(accountId);
    const units = Array.from({ length: 10 }, (_, index) => `unit-${index}`);
    await database.store.ingestEvents(accountId, exposures(units), Date.parse(NOW));
    await database.store.ingestEvents(
      accountId,
      units.slice(0, 4).map((unit) => ({
        kind: 'metric',
        id: `m-${unit}`,
        event: 'purchase',
        unit,
        value: 1,
        atMs: Date.parse(NOW),
      })),
      Date.parse(NOW),
    );
    const sums = await counting.compute({ accountId, testId: 'bigger-button', phase: 1 });
    expect(sums.units).toEqual({ control: 10, big: 0 });
    expect(sums.metrics[0]?.variants.control).toEqual({ n: 10, sum: 4, sumSquares: 4 });
    const saved = await database.store.latestResults(accountId, 'bigger-button', 1);
    expect(saved && parseSums(saved.sums)).toEqual(sums);
  });
});

describe('the results job', () => {
  it('computes a stale phase once, on one of two instances at a time', async () => {
    const { liveTests, computation: counting } = computation(100);
    await liveTests.current(accountId);
    const job = (holder: string) =>
      new ResultsJob({ store: database.store, computation: counting, clock: clock.clock, holder });
    const [first, second] = await Promise.all([job('one').runDue(), job('two').runDue()]);
    const computed = [first, second].filter((pass) => pass !== undefined);
    expect(computed.flat()).toEqual([{ accountId, testId: 'bigger-button', phase: 1 }]);
    // Fresh now: the next pass finds nothing, until 4 minutes have gone by.
    expect(await job('one').runDue()).toEqual([]);
    clock.advance(4 * 60_000);
    expect(await job('one').runDue()).toHaveLength(1);
  });

  it('judges staleness: never computed, old, asked for, or ended since', () => {
    const phase = {
      accountId: 'acc',
      testId: 'test',
      phase: 1,
      endedAt: null,
      computedAt: '2026-11-22T10:00:00.000Z',
      refreshRequestedAt: null,
    };
    const now = Date.parse('2026-11-22T10:03:00.000Z');
    const maxAge = 4 * 60_000;
    expect(isStale(phase, now, maxAge)).toBe(false);
    expect(isStale({ ...phase, computedAt: null }, now, maxAge)).toBe(true);
    expect(isStale(phase, now + 60_000, maxAge)).toBe(true);
    expect(isStale({ ...phase, refreshRequestedAt: '2026-11-22T10:02:00.000Z' }, now, maxAge)).toBe(
      true,
    );
    expect(isStale({ ...phase, endedAt: '2026-11-22T10:01:00.000Z' }, now, maxAge)).toBe(true);
    expect(
      isStale({ ...phase, endedAt: '2026-11-22T09:59:00.000Z' }, now + 3_600_000, maxAge),
    ).toBe(false);
  });
});
