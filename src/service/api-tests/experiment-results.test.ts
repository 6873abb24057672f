/**
 * The results of an A/B test from events to answer: metrics defined through the API, named
 * by the test, counted by the background job per variant inside each metric's window and
 * cap, then judged by the engine the reader chooses; the time series day by day.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { variantOf } from '../../contract/assignment';
import type { ExperimentResults } from '../../contract/experiments';
import { manualClock, ok, send, expectSuccess, SHOP_YAML } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

const START = '2026-11-22T10:00:00.000Z';
const HOUR = 3_600_000;
const TEST = {
  id: 'bigger-button',
  status: 'running',
  variants: [
    { id: 'control', weight: 50 },
    { id: 'big', weight: 50 },
  ],
};
const YAML = SHOP_YAML.replace(
  '    started_at: 2026-11-01T09:00:00.000Z\n',
  '    started_at: 2026-11-01T09:00:00.000Z\n    metrics: [purchases, revenue]\n    guardrails: [errors]\n',
);

let clock: ReturnType<typeof manualClock>;
let service: TestService;
let key: string;
let eventId = 0;

beforeEach(async () => {
  clock = manualClock(START);
  service = await startTestService({
    clock: clock.clock,
    initialYaml: YAML,
    resultsJob: { tickMs: 3_600_000 },
  });
  key = (await ok(service, service.adminKey, 'createClientKey', { payload: { name: 'Apps' } })).key;
  for (const metric of [
    { id: 'purchases', name: 'Purchases', kind: 'binomial', event: 'purchase' },
    { id: 'revenue', name: 'Revenue', kind: 'mean', event: 'purchase', cap: 100, window_hours: 24 },
    { id: 'errors', name: 'Errors', kind: 'count', event: 'error', inverse: true },
  ]) {
    await ok(service, service.adminKey, 'createMetric', { payload: metric });
  }
});
afterEach(async () => {
  await service.close();
});

async function sendEvents(events: Record<string, unknown>[]) {
  const at = clock.now().toISOString();
  const payload = { events: events.map((event) => ({ at, id: `ev-${(eventId += 1)}`, ...event })) };
  const answer = expectSuccess(
    'sendEvents',
    await send(service, undefined, 'sendEvents', { params: { client_key: key }, payload }),
    202,
  );
  expect(answer.rejected).toEqual([]);
}

async function computed(query: Record<string, string> = {}): Promise<ExperimentResults> {
  const before = (
    await ok(service, service.adminKey, 'getResults', {
      params: { test_id: 'bigger-button' },
    })
  ).computed_at;
  await ok(service, service.adminKey, 'refreshResults', { params: { test_id: 'bigger-button' } });
  let answer: ExperimentResults | undefined;
  await vi.waitFor(
    async () => {
      answer = await ok(service, service.adminKey, 'getResults', {
        params: { test_id: 'bigger-button' },
        query,
      });
      expect(answer.computed_at).not.toBeNull();
      expect(answer.computed_at).not.toBe(before);
    },
    { timeout: 10_000, interval: 20 },
  );
  return answer as ExperimentResults;
}

const variantOfUnit = (unit: string) => variantOf(TEST, unit)?.id as string;

describe('results of an A/B test', () => {
  it('counts every exposed unit, its events inside the window and under the cap', async () => {
    await sendEvents([
      { kind: 'exposure', test: 'bigger-button', variant: variantOfUnit('ann'), unit: 'ann' },
      { kind: 'exposure', test: 'bigger-button', variant: variantOfUnit('bob'), unit: 'bob' },
      // Before any exposure of cid: it never counts (cid is not exposed at all).
      { kind: 'metric', event: 'purchase', unit: 'cid', value: 30 },
      { kind: 'metric', event: 'purchase', unit: 'ann', value: 250 },
      { kind: 'metric', event: 'error', unit: 'ann' },
      { kind: 'metric', event: 'error', unit: 'ann' },
    ]);
    // 25 hours later: past revenue's 24-hour window, inside the others' 72.
    clock.advance(25 * HOUR);
    await sendEvents([{ kind: 'metric', event: 'purchase', unit: 'bob', value: 10 }]);
    const results = await computed();
    const ann = variantOfUnit('ann');
    const bob = variantOfUnit('bob');
    const row = (metric: string, variant: string) =>
      results.metrics.find((entry) => entry.id === metric)?.variants.find((v) => v.id === variant);
    expect(results.metrics.map((metric) => [metric.id, metric.role, metric.kind])).toEqual([
      ['purchases', 'goal', 'binomial'],
      ['revenue', 'goal', 'mean'],
      ['errors', 'guardrail', 'count'],
    ]);
    const share = (units: string[], variant: string) => units.filter((u) => u === variant).length;
    // Capped at 100 (250 sent); bob's 10 came after revenue's window closed.
    const revenue = (variant: string) =>
      ((ann === variant ? 100 : 0) + 0) / Math.max(1, share([ann, bob], variant));
    for (const variant of ['control', 'big']) {
      const units = share([ann, bob], variant);
      if (units === 0) continue;
      expect(row('purchases', variant)?.value).toBeCloseTo(
        ((ann === variant ? 1 : 0) + (bob === variant ? 1 : 0)) / units,
      );
      expect(row('revenue', variant)?.value).toBeCloseTo(revenue(variant));
      expect(row('errors', variant)?.value).toBeCloseTo((ann === variant ? 2 : 0) / units);
    }
    expect(results.metrics.find((metric) => metric.id === 'errors')?.inverse).toBe(true);
  });

  it('judges a clear difference: winning, with a chance to win, or a p-value by engine', async () => {
    const units = Array.from({ length: 1_200 }, (_, index) => `person-${index}`);
    await sendEvents(
      units.slice(0, 500).map((unit) => ({
        kind: 'exposure',
        test: 'bigger-button',
        variant: variantOfUnit(unit),
        unit,
      })),
    );
    await sendEvents(
      units.slice(500, 1_000).map((unit) => ({
        kind: 'exposure',
        test: 'bigger-button',
        variant: variantOfUnit(unit),
        unit,
      })),
    );
    await sendEvents(
      units.slice(1_000).map((unit) => ({
        kind: 'exposure',
        test: 'bigger-button',
        variant: variantOfUnit(unit),
        unit,
      })),
    );
    // The big button converts 60% of its units, the control 20%.
    const buyers = units.filter((unit, index) =>
      variantOfUnit(unit) === 'big' ? index % 5 < 3 : index % 5 === 0,
    );
    for (let offset = 0; offset < buyers.length; offset += 400) {
      await sendEvents(
        buyers
          .slice(offset, offset + 400)
          .map((unit) => ({ kind: 'metric', event: 'purchase', unit, value: 20 })),
      );
    }
    const bayesian = await computed();
    const purchases = bayesian.metrics[0]?.variants ?? [];
    expect(purchases[0]).toMatchObject({ id: 'control', verdict: 'control' });
    expect(purchases[1]).toMatchObject({ id: 'big', verdict: 'winning' });
    expect(purchases[1]?.chance_to_win).toBeGreaterThan(0.99);
    expect(purchases[1]?.p_value).toBeUndefined();
    expect(purchases[1]?.lift?.estimate).toBeGreaterThan(1.5);

    const frequentist = await ok(service, service.adminKey, 'getResults', {
      params: { test_id: 'bigger-button' },
      query: { engine: 'frequentist', sequential: 'true', correction: 'holm' },
    });
    expect(frequentist).toMatchObject({
      engine: 'frequentist',
      sequential: true,
      correction: 'holm',
    });
    const big = frequentist.metrics[0]?.variants[1];
    expect(big?.p_value).toBeLessThan(0.001);
    expect(big?.chance_to_win).toBeUndefined();
    expect(big?.verdict).toBe('winning');
    // The sequential interval is wider than the fixed one on the same sums.
    const fixed = await ok(service, service.adminKey, 'getResults', {
      params: { test_id: 'bigger-button' },
      query: { engine: 'frequentist' },
    });
    const width = (answer: ExperimentResults) => {
      const [low, high] = answer.metrics[0]?.variants[1]?.lift?.interval ?? [0, 0];
      return high - low;
    };
    expect(width(frequentist)).toBeGreaterThan(width(fixed));
    // Errors: nobody had one; no variance, so no result, said in words.
    const errors = bayesian.metrics.find((metric) => metric.id === 'errors')?.variants[1];
    expect(errors?.verdict).toBe('no_result');
    expect(errors?.note).toMatch(/\w/);
  });

  it('draws the lift day by day, one point per day the job computed', async () => {
    const units = Array.from({ length: 40 }, (_, index) => `day-one-${index}`);
    await sendEvents(
      units.map((unit) => ({
        kind: 'exposure',
        test: 'bigger-button',
        variant: variantOfUnit(unit),
        unit,
      })),
    );
    await computed();
    clock.advance(24 * HOUR);
    await sendEvents(units.map((unit) => ({ kind: 'metric', event: 'purchase', unit, value: 5 })));
    await computed();
    const series = await ok(service, service.adminKey, 'getResultsTimeseries', {
      params: { test_id: 'bigger-button' },
    });
    expect(series).toMatchObject({ test: 'bigger-button', phase: 1, engine: 'bayesian' });
    const purchases = series.metrics.find((metric) => metric.id === 'purchases');
    expect(purchases?.variants.map((variant) => variant.id)).toEqual(['big']);
    expect(purchases?.variants[0]?.points.map((point) => point.date)).toEqual([
      '2026-11-22',
      '2026-11-23',
    ]);
    expect(purchases?.variants[0]?.points[0]?.units).toBe(
      units.filter((unit) => variantOfUnit(unit) === 'big').length,
    );
  });

  it('names a metric no longer defined, without a result', async () => {
    await sendEvents(
      ['a', 'b', 'c'].map((unit) => ({
        kind: 'exposure',
        test: 'bigger-button',
        variant: variantOfUnit(unit),
        unit,
      })),
    );
    await ok(service, service.adminKey, 'deleteMetric', { params: { metric_id: 'revenue' } });
    const results = await computed();
    const revenue = results.metrics.find((metric) => metric.id === 'revenue');
    expect(revenue).toMatchObject({ name: null, kind: null, role: 'goal' });
    expect(revenue?.variants[1]).toMatchObject({ verdict: 'no_result' });
    expect(revenue?.variants[1]?.note).toMatch(/No metric has this id/);
  });
});
