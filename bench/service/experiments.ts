/**
 * Experiment results at scale, on the bundled service as `npm start` runs it:
 * - events ingested a second by one instance (batches of 500 sent as fast as it takes them),
 *   and `GET /health`'s p99 meanwhile, divided by its p99 when idle;
 * - a refresh of a test with 1,000,000 exposed units and 2,000,000 metric events (written
 *   straight into the database first): its time and the service's extra resident memory;
 * - a read of the cached results, many times: its median.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DATABASE_FILE } from '../../src/service/store/database';
import { judged, median, MIB, printed, round, type Figure } from '../lib/figures';
import { runLoad } from '../lib/load';
import { percentile, probeHealth, residentBytes } from '../lib/probes';
import { benchDataDir, seedAccounts, type SeededAccount } from '../lib/seed';
import { startService, type RunningProcess } from '../lib/service-process';

const TEST_YAML = `apps:
  - id: shop
    name: Shop
    platform: web
ab_tests:
  - id: checkout
    app: shop
    status: running
    started_at: 2026-11-01T00:00:00.000Z
    metrics: [purchases, revenue]
    guardrails: [page-views]
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
`;
const UNITS = 1_000_000;
const EVENTS_PER_UNIT = 2;
const BATCH = 500;
const INGEST_SECONDS = 15;
const READS = 100;
const INGEST_BAR = { min: 10_000, text: '≥ 10,000' };
const HEALTH_RATIO_BAR = { max: 10, text: '≤ 10' };
const REFRESH_BAR = { max: 10, text: '≤ 10 s' };
const MEMORY_BAR = { max: 300, text: '≤ 300 MB' };
const READ_BAR = { max: 50, text: '≤ 50 ms' };

async function api(
  service: RunningProcess,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${service.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

async function defineMetrics(service: RunningProcess, key: string): Promise<void> {
  const metrics = [
    { id: 'purchases', name: 'Purchases', kind: 'binomial', event: 'purchase' },
    { id: 'revenue', name: 'Revenue', kind: 'mean', event: 'purchase', cap: 500 },
    { id: 'page-views', name: 'Page views', kind: 'count', event: 'page_view' },
  ];
  for (const metric of metrics) await api(service, key, 'POST', '/metrics', metric);
}

/**
 * A batch of 500: 250 exposures and 250 metric events, each of its own unit; `[<id>]` is a
 * fresh id per request, so no event is a duplicate.
 */
function eventBatch(): string {
  const at = new Date().toISOString();
  const events = Array.from({ length: BATCH }, (_, index) =>
    index % 2 === 0
      ? {
          kind: 'exposure',
          test: 'checkout',
          variant: 'control',
          unit: `u-[<id>]-${index}`,
          at,
          id: `[<id>]-${index}`,
        }
      : {
          kind: 'metric',
          event: 'purchase',
          unit: `u-[<id>]-${index - 1}`,
          value: 12.5,
          at,
          id: `[<id>]-${index}`,
        },
  );
  return JSON.stringify({ events });
}

async function benchIngestion(service: RunningProcess, account: SeededAccount): Promise<Figure[]> {
  const key = (await api(service, account.adminKey, 'POST', '/client-keys', { name: 'Bench' })) as {
    key: string;
  };
  let idleDone = false;
  setTimeout(() => (idleDone = true), 5_000);
  const idle = percentile(await probeHealth(service.url, () => idleDone), 0.99);
  let loading = true;
  const load = runLoad({
    url: `${service.url}/api/v1/delivery/${key.key}/events`,
    headers: { 'content-type': 'text/plain' },
    connections: 4,
    durationSeconds: INGEST_SECONDS,
    post: { body: eventBatch() },
  }).finally(() => (loading = false));
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const busy = await probeHealth(service.url, () => !loading);
  const result = await load;
  const accepted = result.statuses?.['202'] ?? 0;
  if (accepted !== result.requests)
    throw new Error(`events: ${JSON.stringify(result.statuses)} of ${result.requests} requests`);
  const busyP99 = percentile(busy, 0.99);
  return [
    judged(
      'events ingested a second, one instance (batches of 500)',
      round((accepted * BATCH) / INGEST_SECONDS, 0),
      'events/s',
      INGEST_BAR,
    ),
    printed('GET /health p99, idle', round(idle, 2), 'ms'),
    printed('GET /health p99, while ingesting', round(busyP99, 1), 'ms'),
    judged(
      'GET /health p99 ÷ idle, while ingesting',
      round(busyP99 / idle, 1),
      '×',
      HEALTH_RATIO_BAR,
    ),
  ];
}

/**
 * 1,000,000 exposed units of the test's first phase (half in each variant) and two events
 * each: a purchase for about 30% (32% in the variant) with a value, else a page view.
 */
function seedExposures(dataDir: string, accountId: string): void {
  const db = new Database(join(dataDir, DATABASE_FILE));
  const start = Date.parse('2026-11-01T00:00:00.000Z');
  try {
    db.transaction(() => {
      db.prepare(
        `INSERT INTO experiment_phases (account_id, test_id, number, weights, started_at)
         VALUES (?, 'checkout', 1, '{"control":50,"big":50}', '2026-11-01T00:00:00.000Z')`,
      ).run(accountId);
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO experiment_units
           (account_id, test_id, phase, unit, variant, first_ms, exposed_right, exposed_wrong)
         SELECT ?, 'checkout', 1, printf('u%07d', i), CASE i % 2 WHEN 0 THEN 'control' ELSE 'big' END,
                ? + i * 1000, 1, 0 FROM n`,
      ).run(UNITS - 1, accountId, start);
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO experiment_metric_events (account_id, event, unit, value, at_ms, received_ms)
         SELECT ?, CASE WHEN (i * 7919) % 100 < 30 + (i / ${EVENTS_PER_UNIT}) % 2 * 2
                        THEN 'purchase' ELSE 'page_view' END,
                printf('u%07d', i / ${EVENTS_PER_UNIT}), (i * 31) % 20000 / 100.0,
                ? + (i / ${EVENTS_PER_UNIT}) * 1000 + 60000, ? FROM n`,
      ).run(UNITS * EVENTS_PER_UNIT - 1, accountId, start, start);
    })();
  } finally {
    db.close();
  }
}

async function benchRefresh(service: RunningProcess, account: SeededAccount): Promise<Figure[]> {
  const results = () =>
    api(service, account.adminKey, 'GET', '/ab-tests/checkout/results') as Promise<{
      computed_at: string | null;
      units: { units: number }[];
    }>;
  // The job's first pass computes the seeded phase once on start: wait for it, then time a
  // refresh from the request to its new computed_at.
  while ((await results()).computed_at === null) await new Promise((r) => setTimeout(r, 100));
  const before = (await results()).computed_at;
  const baseline = residentBytes(service.pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(service.pid))), 50);
  const started = performance.now();
  await api(service, account.adminKey, 'POST', '/ab-tests/checkout/results/refresh');
  let answer = await results();
  while (answer.computed_at === before) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await results();
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const counted = answer.units.reduce((total, variant) => total + variant.units, 0);
  if (counted !== UNITS) throw new Error(`the refresh counted ${counted} units`);
  const reads: number[] = [];
  for (let read = 0; read < READS; read += 1) {
    const start = performance.now();
    await results();
    reads.push(performance.now() - start);
  }
  return [
    judged(
      'results refresh, 1,000,000 units and 2,000,000 events',
      round(seconds, 1),
      's',
      REFRESH_BAR,
    ),
    judged(
      '  extra service memory (RSS) during it',
      round((peak - baseline) / MIB, 0),
      'MB',
      MEMORY_BAR,
    ),
    judged(
      'GET /ab-tests/{id}/results (cached), p50',
      round(median(reads.slice(10)), 2),
      'ms',
      READ_BAR,
    ),
  ];
}

export async function benchExperiments(): Promise<Figure[]> {
  const dataDir = benchDataDir();
  const [ingesting, refreshed] = await seedAccounts(dataDir, [TEST_YAML, TEST_YAML]);
  if (!ingesting || !refreshed) throw new Error('no account was seeded');
  seedExposures(dataDir, refreshed.accountId);
  // The instance's capacity, not its limits: the per-key budget and per-address rate are off.
  const service = await startService(dataDir, {
    RESULTS_TICK_MS: '1000',
    EVENTS_PER_KEY_PER_SECOND: '0',
    DELIVERY_RATE_LIMIT_RPS: '0',
  });
  try {
    await defineMetrics(service, ingesting.adminKey);
    await defineMetrics(service, refreshed.adminKey);
    const refresh = await benchRefresh(service, refreshed);
    const ingestion = await benchIngestion(service, ingesting);
    return [...ingestion, ...refresh];
  } finally {
    await service.stop();
  }
}
