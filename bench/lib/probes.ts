/** What the service benches watch while they load it: `/health` latency and resident memory. */
import { readFileSync } from 'node:fs';

const PROBE_INTERVAL_MS = 20;

export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** GET /health one after another, a pause between, until `done` says stop. */
export async function probeHealth(url: string, done: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!done()) {
    const start = performance.now();
    const response = await fetch(`${url}/api/v1/health`);
    await response.arrayBuffer();
    latencies.push(performance.now() - start);
    if (!response.ok) throw new Error(`GET /health answered ${response.status}`);
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  }
  return latencies;
}

/** A process's resident memory, from /proc. */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kib === undefined ? Number.NaN : Number(kib) * 1024;
}
