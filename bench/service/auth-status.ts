/**
 * `GET /auth/status` against a bare Fastify route answering the same JSON, each in a process
 * of its own and loaded by autocannon from a third, with the same connections and duration:
 * the real service (key lookup, security headers, request log, contract-checked route).
 * CPU time per request (cpu-per-request.ts) and requests/s are printed, not judged: the access
 * log, the REST header set and the revocation check are kept on purpose (docs/benchmarks.md);
 * the judged CPU bar is on delivery's 304 path, where the volume is.
 *
 * Both run the same way: an esbuild bundle started by plain `node` (the service's is built by
 * run.ts, as `npm start` builds it; bin/provisioning.js runs it): through tsx's loader
 * neither would be measured as it is deployed (docs/benchmarks.md).
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { pairedCpuPerRequest, waitForIdle } from '../lib/cpu-per-request';
import { median, printed, round, type Figure } from '../lib/figures';
import { benchDataDir, seedAccounts } from '../lib/seed';
import { startListening, startService, type RunningProcess } from '../lib/service-process';
import { EMPTY_CONFIG_YAML } from '../../src/service/domain/accounts';

const BARE_SERVER = fileURLToPath(new URL('../lib/bare-server.ts', import.meta.url));
/** Beside the service's bundle (build/service/cli.mjs), so that `fastify` resolves alike. */
const BARE_BUNDLE = fileURLToPath(new URL('../../build/bench/bare-server.mjs', import.meta.url));
const CONNECTIONS = 10;
const DURATION_SECONDS = 4;
const PAIRS = 5;
const PATH = '/api/v1/auth/status';

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
    // The service's edit workers warm up as it starts: not to be counted to requests.
    await waitForIdle(service.pid);
    const cost = await pairedCpuPerRequest({
      subject: { name: 'GET /auth/status', url: service.url, pid: service.pid },
      baseline: { name: 'bare Fastify', url: bare.url, pid: bare.pid },
      path: PATH,
      headers,
      connections: CONNECTIONS,
      durationSeconds: DURATION_SECONDS,
      pairs: PAIRS,
    });
    const rps = median(cost.subject.map((each) => each.rps));
    const bareRps = median(cost.baseline.map((each) => each.rps));
    const micros = median(cost.subject.map((each) => each.cpuMicrosPerRequest));
    const bareMicros = median(cost.baseline.map((each) => each.cpuMicrosPerRequest));
    if (process.env.BENCH_AUTH_LOG) {
      console.error({ ratios: cost.ratios.map((each) => round(each, 3)), rps, bareRps });
    }
    return [
      printed('GET /auth/status, requests/s', Math.round(rps), 'req/s'),
      printed('bare Fastify route, same JSON (baseline), requests/s', Math.round(bareRps), 'req/s'),
      printed('GET /auth/status ÷ bare Fastify, requests/s', round(rps / bareRps), '×'),
      printed('GET /auth/status, CPU per request', round(micros, 1), 'µs'),
      printed('bare Fastify route, CPU per request (baseline)', round(bareMicros, 1), 'µs'),
      printed(
        'GET /auth/status ÷ bare Fastify, CPU per request (bare ÷ service)',
        round(cost.ratio),
        '×',
      ),
    ];
  } finally {
    await bare?.stop();
    await service.stop();
  }
}
