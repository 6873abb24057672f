/**
 * `GET /delivery/{client_key}/apps/{app_id}` with If-None-Match (the 304 an app polling
 * its view gets while nothing changed) against a bare Fastify route answering the same 304,
 * each in a process of its own, loaded by autocannon from a third with the same connections
 * and duration, in alternating pairs (cpu-per-request.ts). Judged on requests/s; CPU per
 * request is printed beside. The delivery rate limit is raised above the load, not turned
 * off, so that its cost is counted.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { pairedCpuPerRequest, waitForIdle } from '../lib/cpu-per-request';
import { judged, median, printed, round, type Figure } from '../lib/figures';
import { benchDataDir, seedAccounts } from '../lib/seed';
import { startListening, startService, type RunningProcess } from '../lib/service-process';
import { ClientKeys } from '../../src/service/domain/client-keys';
import { systemClock } from '../../src/service/domain/clock';
import { openDatabase } from '../../src/service/store/database';
import { SqliteStore } from '../../src/service/store/sqlite-store';

const BARE_SERVER = fileURLToPath(new URL('../lib/bare-delivery-server.ts', import.meta.url));
/** Beside the service's bundle (build/service/cli.mjs), so that `fastify` resolves alike. */
const BARE_BUNDLE = fileURLToPath(
  new URL('../../build/bench/bare-delivery-server.mjs', import.meta.url),
);
const CONNECTIONS = 10;
const DURATION_SECONDS = 4;
const PAIRS = 5;
const APP = 'checkout';

/** A live config with one app and a running test: what a shop's web app reads. */
const LIVE_YAML = `apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      theme: light
      button_size: medium
ab_tests:
  - id: bigger-button
    app: checkout
    status: running
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
        settings:
          button_size: large
    started_at: 2026-11-01T09:00:00.000Z
`;

async function seedClientKey(dataDir: string, accountId: string): Promise<string> {
  const store = new SqliteStore(openDatabase(dataDir));
  try {
    const created = await new ClientKeys(store, systemClock).issue({
      accountId,
      name: 'Bench apps',
      apps: undefined,
      actor: null,
    });
    return created.key;
  } finally {
    await store.close();
  }
}

export async function benchDeliveryView(): Promise<Figure[]> {
  const dataDir = benchDataDir();
  const [account] = await seedAccounts(dataDir, [LIVE_YAML]);
  if (!account) throw new Error('no account was seeded');
  const key = await seedClientKey(dataDir, account.accountId);
  const path = `/api/v1/delivery/${key}/apps/${APP}`;
  const service = await startService(dataDir, {
    DELIVERY_RATE_LIMIT_RPS: '10000000',
    DELIVERY_RATE_LIMIT_BURST: '100000000',
  });
  let bare: RunningProcess | undefined;
  try {
    const answer = await fetch(`${service.url}${path}`);
    if (!answer.ok) throw new Error(`GET ${path} answered ${answer.status}`);
    const etag = answer.headers.get('etag');
    if (!etag) throw new Error('the view came without an ETag');
    const body = await answer.text();
    await build({
      entryPoints: [BARE_SERVER],
      outfile: BARE_BUNDLE,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
    bare = await startListening([BARE_BUNDLE, etag, body], {
      portPattern: /Bare Fastify: http:\/\/[^:]+:(\d+)/,
    });
    await waitForIdle(service.pid);
    const cost = await pairedCpuPerRequest({
      subject: { name: 'GET /delivery/…/apps/… 304', url: service.url, pid: service.pid },
      baseline: { name: 'bare Fastify 304', url: bare.url, pid: bare.pid },
      path,
      headers: { 'if-none-match': etag },
      connections: CONNECTIONS,
      durationSeconds: DURATION_SECONDS,
      pairs: PAIRS,
      expectedStatus: 304,
    });
    const rpsRatios = cost.subject.map((mine, n) => mine.rps / (cost.baseline[n]?.rps ?? 1));
    const rps = median(cost.subject.map((each) => each.rps));
    const bareRps = median(cost.baseline.map((each) => each.rps));
    const micros = median(cost.subject.map((each) => each.cpuMicrosPerRequest));
    const bareMicros = median(cost.baseline.map((each) => each.cpuMicrosPerRequest));
    if (process.env.BENCH_DELIVERY_LOG) {
      console.error({ rpsRatios: rpsRatios.map((each) => round(each, 3)), rps, bareRps });
    }
    return [
      printed('GET /delivery/{key}/apps/{app} 304, requests/s', Math.round(rps), 'req/s'),
      printed('bare Fastify route, same 304 (baseline), requests/s', Math.round(bareRps), 'req/s'),
      judged(
        'GET /delivery/{key}/apps/{app} 304 ÷ bare Fastify, requests/s',
        round(median(rpsRatios)),
        '×',
        { min: 0.7, text: '≥ 0.7' },
      ),
      printed('GET /delivery/{key}/apps/{app} 304, CPU per request', round(micros, 1), 'µs'),
      printed('bare Fastify 304, CPU per request (baseline)', round(bareMicros, 1), 'µs'),
      printed(
        'GET /delivery/{key}/apps/{app} 304 ÷ bare Fastify, CPU per request (bare ÷ service)',
        round(cost.ratio),
        '×',
      ),
    ];
  } finally {
    await bare?.stop();
    await service.stop();
  }
}
