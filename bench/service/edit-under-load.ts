/**
 * The service while people edit 10,000-app configs: `GET /health`'s p99 latency while 12
 * clients edit (warm: one shared draft, whose parsed document the edit pool keeps; cold:
 * twelve drafts, more than its cache holds, so every edit parses), divided by its p99 when
 * idle; and the service's resident memory while 16 clients edit 16 such drafts.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { largeConfigText } from '../../src/configs/testing/large-config';
import { judged, MIB, printed, round, type Figure } from '../lib/figures';
import { benchDataDir, seedAccounts, seedDrafts, type SeededAccount } from '../lib/seed';
import { percentile, probeHealth, residentBytes } from '../lib/probes';
import { startService, type RunningProcess } from '../lib/service-process';

const EDIT_LOAD_CHILD = fileURLToPath(new URL('../lib/edit-load-child.ts', import.meta.url));
const HEALTH_RATIO_BAR = { max: 10, text: '≤ 10' };
const MEMORY_BAR = { max: 600, text: '≤ 600 MB' };
interface UnderLoad {
  readonly healthMs: number[];
  readonly peakRssBytes: number;
  readonly edits: number;
}

async function underLoad(
  service: RunningProcess,
  account: SeededAccount,
  drafts: readonly string[],
  durationMs: number,
): Promise<UnderLoad> {
  let loading = true;
  let peakRssBytes = 0;
  const sampler = setInterval(() => {
    peakRssBytes = Math.max(peakRssBytes, residentBytes(service.pid));
  }, 100);
  const clients = promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      EDIT_LOAD_CHILD,
      JSON.stringify({ url: service.url, key: account.adminKey, drafts, durationMs }),
    ],
    { maxBuffer: MIB },
  ).finally(() => {
    loading = false;
  });
  // The first second is the clients' start: their first edits are not yet in flight.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const healthMs = await probeHealth(service.url, () => !loading);
  const { stdout } = await clients;
  clearInterval(sampler);
  const { edits, failures } = JSON.parse(stdout) as { edits: number; failures: number };
  if (failures > 0) throw new Error(`${failures} edits failed under load`);
  return { healthMs, peakRssBytes, edits };
}

export async function benchEditUnderLoad(): Promise<Figure[]> {
  const dataDir = benchDataDir();
  const [account] = await seedAccounts(dataDir, [largeConfigText(10_000)]);
  if (!account) throw new Error('no account was seeded');
  const drafts = await seedDrafts(dataDir, account, 16);
  const service = await startService(dataDir);
  try {
    let idleDone = false;
    setTimeout(() => (idleDone = true), 6_000);
    const idle = percentile(await probeHealth(service.url, () => idleDone), 0.99);
    const shared = drafts[0] as string;
    const warm = await underLoad(service, account, Array(12).fill(shared), 20_000);
    const cold = await underLoad(service, account, drafts.slice(1, 13), 30_000);
    const memory = await underLoad(service, account, drafts, 30_000);
    const warmP99 = percentile(warm.healthMs, 0.99);
    const coldP99 = percentile(cold.healthMs, 0.99);
    return [
      printed('GET /health p99, idle', round(idle, 2), 'ms'),
      printed('GET /health p99, 12 clients editing one 10,000-app draft', round(warmP99, 1), 'ms'),
      printed(`  (edits done in 20 s)`, warm.edits, 'edits'),
      judged('GET /health p99 ÷ idle, warm edits', round(warmP99 / idle, 1), '×', HEALTH_RATIO_BAR),
      printed('GET /health p99, 12 clients editing 12 10,000-app drafts', round(coldP99, 1), 'ms'),
      printed(`  (edits done in 30 s)`, cold.edits, 'edits'),
      judged('GET /health p99 ÷ idle, cold edits', round(coldP99 / idle, 1), '×', HEALTH_RATIO_BAR),
      judged(
        'service memory (RSS, peak), 16 clients editing 16 10,000-app drafts',
        round(memory.peakRssBytes / 1e6, 0),
        'MB',
        MEMORY_BAR,
      ),
    ];
  } finally {
    await service.stop();
  }
}
