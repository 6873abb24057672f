/**
 * `GET /auth/status` throughput: the real service (key lookup, security headers, request
 * log, contract-checked route) against a bare Fastify route answering the same JSON, each
 * in a process of its own and loaded by autocannon from a third, with the same connections
 * and duration. Rounds alternate between the two, and which of the two goes first alternates
 * too, so that a neighbour's load hits both alike.
 *
 * Both run the same way: an esbuild bundle started by plain `node` (the service's is built by
 * run.ts, as `npm start` builds it; bin/provisioning.js runs it). Through tsx's loader, a
 * process answered measurably fewer requests (docs/benchmarks.md): the service run through
 * tsx against a bare app through tsx measured neither as it is deployed.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { judged, median, printed, round, type Figure } from '../lib/figures';
import { runLoad, type LoadResult } from '../lib/load';
import { benchDataDir, seedAccounts } from '../lib/seed';
import { startListening, startService, type RunningProcess } from '../lib/service-process';
import { EMPTY_CONFIG_YAML } from '../../src/service/domain/accounts';

const BARE_SERVER = fileURLToPath(new URL('../lib/bare-server.ts', import.meta.url));
/** Beside the service's bundle (build/service/cli.mjs), so that `fastify` resolves alike. */
const BARE_BUNDLE = fileURLToPath(new URL('../../build/bench/bare-server.mjs', import.meta.url));
const CONNECTIONS = 10;
const DURATION_SECONDS = 4;
const ROUNDS = 5;
const PATH = '/api/v1/auth/status';

function checked(result: LoadResult, what: string): number {
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${what}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result.rps;
}

export async function benchAuthStatus(): Promise<Figure[]> {
  const dataDir = benchDataDir();
  const [account] = await seedAccounts(dataDir, [EMPTY_CONFIG_YAML]);
  if (!account) throw new Error('no account was seeded');
  const headers = { authorization: `Bearer ${account.adminKey}` };
  const service = await startService(dataDir);
  let bare: RunningProcess | undefined;
  try {
    const answer = await fetch(`${service.url}${PATH}`, { headers });
    if (!answer.ok) throw new Error(`GET /auth/status answered ${answer.status}`);
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
    bare = await startListening([BARE_BUNDLE, JSON.stringify(await answer.json())], {
      portPattern: /Bare Fastify: http:\/\/[^:]+:(\d+)/,
    });
    const load = (url: string, seconds: number) =>
      runLoad({
        url: `${url}${PATH}`,
        headers,
        connections: CONNECTIONS,
        durationSeconds: seconds,
      });
    // Warm both up (JIT, SQLite page cache) before anything is counted.
    await load(service.url, 1);
    await load(bare.url, 1);
    const real: number[] = [];
    const baseline: number[] = [];
    const bareUrl = bare.url;
    const measureBare = async () =>
      baseline.push(checked(await load(bareUrl, DURATION_SECONDS), 'bare Fastify'));
    const measureService = async () =>
      real.push(checked(await load(service.url, DURATION_SECONDS), 'GET /auth/status'));
    for (let round = 0; round < ROUNDS; round++) {
      for (const measure of round % 2 === 0
        ? [measureBare, measureService]
        : [measureService, measureBare])
        await measure();
    }
    const rps = median(real);
    const bareRps = median(baseline);
    return [
      printed('GET /auth/status, requests/s', Math.round(rps), 'req/s'),
      printed('bare Fastify route, same JSON (baseline), requests/s', Math.round(bareRps), 'req/s'),
      judged('GET /auth/status ÷ bare Fastify', round(rps / bareRps), '×', {
        min: 0.7,
        text: '≥ 0.7',
      }),
    ];
  } finally {
    await bare?.stop();
    await service.stop();
  }
}
