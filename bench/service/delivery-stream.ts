/**
 * Push: publish → event at 1,000 SSE subscribers of one app (docs/delivery.md). The service
 * runs in its own process (as deployed), the subscribers in another
 * (stream-subscribers-child.ts), and this one publishes: a draft is edited beforehand, then
 * the clock starts as `POST /configs/{id}/publish` is sent and stops at each subscriber as
 * the event arrives. Several publishes; p50 and p99 over every (publish, subscriber).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { judged, printed, round, type Figure } from '../lib/figures';
import { benchDataDir, seedAccounts } from '../lib/seed';
import { startService } from '../lib/service-process';
import { SHOP_YAML } from '../../src/service/testing/api';

const CHILD = fileURLToPath(new URL('../lib/stream-subscribers-child.ts', import.meta.url));
const SUBSCRIBERS = Number(process.env.BENCH_STREAM_SUBSCRIBERS ?? 1_000);
const PUBLISHES = 5;

function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

async function call(url: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export async function benchDeliveryStream(): Promise<Figure[]> {
  const dataDir = benchDataDir();
  const [account] = await seedAccounts(dataDir, [SHOP_YAML]);
  if (!account) throw new Error('no account was seeded');
  // One client address opens every stream here: the delivery rate limit (per address) is
  // off, and the address may hold as many streams as the instance.
  const service = await startService(dataDir, {
    DELIVERY_RATE_LIMIT_RPS: '0',
    DELIVERY_MAX_STREAMS_PER_ADDRESS: '10000',
  });
  try {
    const clientKey = await call(service.url, account.adminKey, 'POST', '/client-keys', {
      name: 'Bench apps',
    });
    const subscribers = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        CHILD,
        JSON.stringify({
          url: `${service.url}/api/v1/delivery/${String(clientKey.key)}/stream?app=checkout`,
          count: SUBSCRIBERS,
        }),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: subscribers.stdout })[Symbol.asyncIterator]();
    const nextLine = async () => {
      const { value, done } = await lines.next();
      if (done) throw new Error('the subscribers ended');
      return JSON.parse(value as string) as { ready?: number; id?: string; times?: number[] };
    };
    try {
      const ready = await nextLine();
      if (ready.ready !== SUBSCRIBERS) throw new Error(`subscribers: ${JSON.stringify(ready)}`);
      const latencies: number[] = [];
      const slowest: number[] = [];
      for (let publish = 0; publish < PUBLISHES; publish++) {
        const draft = await call(service.url, account.adminKey, 'POST', '/config/edit', {
          operations: [
            { update_app: [{ id: 'checkout', settings: { theme: `theme-${publish}` } }] },
          ],
          summary: `Bench publish ${publish}`,
        });
        const sentAt = performance.timeOrigin + performance.now();
        const published = await call(
          service.url,
          account.adminKey,
          'POST',
          `/configs/${String(draft.id)}/publish`,
        );
        const arrived = await nextLine();
        if (arrived.id !== `${String(published.id)}:1` || !arrived.times)
          throw new Error(`expected the event of ${String(published.id)}, got ${arrived.id}`);
        const each = arrived.times.map((at) => at - sentAt);
        latencies.push(...each);
        slowest.push(Math.max(...each));
        // Quiet between publishes, as publishes are.
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const sorted = [...latencies].sort((a, b) => a - b);
      const p99 = percentile(sorted, 99);
      return [
        printed(
          `publish → event at ${SUBSCRIBERS.toLocaleString('en')} SSE subscribers, p50`,
          round(percentile(sorted, 50), 1),
          'ms',
        ),
        judged(
          `publish → event at ${SUBSCRIBERS.toLocaleString('en')} SSE subscribers, p99`,
          round(p99, 1),
          'ms',
          { max: 1_000, text: '≤ 1 s' },
        ),
        printed(
          `publish → event, slowest subscriber, worst of ${PUBLISHES} publishes`,
          round(Math.max(...slowest), 1),
          'ms',
        ),
      ];
    } finally {
      subscribers.stdin.end();
      subscribers.kill();
    }
  } finally {
    await service.stop();
  }
}
