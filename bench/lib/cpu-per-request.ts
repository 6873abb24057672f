/**
 * What a request costs a server, in CPU time: the server process's utime + stime (every
 * thread, from /proc/<pid>/stat) over a load round, divided by the requests it answered.
 * A neighbour's load slows a server's wall clock, not the CPU it spends per request, so a
 * ratio of two servers' costs holds where a ratio of their requests/s moves with the host.
 * Rounds of the two alternate, paired (which goes first alternates too), and each pair
 * gives one ratio; the median of the pairs is the figure.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { median } from './figures';
import { runLoad, type LoadResult } from './load';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** CPU time the process `pid` has used so far (all its threads), in µs. */
export function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name, in parentheses, may hold spaces: fields are counted after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) / TICKS_PER_SECOND) * 1e6;
}

export interface Server {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
}

export interface RoundResult {
  readonly rps: number;
  readonly cpuMicrosPerRequest: number;
}

export interface PairedCost {
  /** Per pair: the baseline's CPU per request ÷ the subject's (higher is better). */
  readonly ratios: readonly number[];
  readonly ratio: number;
  readonly subject: readonly RoundResult[];
  readonly baseline: readonly RoundResult[];
}

async function round(
  server: Server,
  path: string,
  load: { headers?: Record<string, string>; connections: number; durationSeconds: number },
  expectedStatus?: number,
): Promise<RoundResult> {
  const before = processCpuMicros(server.pid);
  const result: LoadResult = await runLoad({ url: `${server.url}${path}`, ...load });
  const spent = processCpuMicros(server.pid) - before;
  // Without an expected status, any 2xx will do.
  const unexpected =
    expectedStatus === undefined
      ? result.non2xx
      : Object.entries(result.statuses ?? {})
          .filter(([status]) => Number(status) !== expectedStatus)
          .reduce((sum, [, count]) => sum + count, 0);
  if (unexpected > 0 || result.errors > 0 || result.requests === 0) {
    throw new Error(
      `${server.name}: ${unexpected} unexpected answers (${JSON.stringify(result.statuses)}), ${result.errors} errors`,
    );
  }
  return { rps: result.rps, cpuMicrosPerRequest: spent / result.requests };
}

/**
 * `pairs` pairs of load rounds on `path`, one on each server, with the same load; both
 * are warmed up first.
 */
export async function pairedCpuPerRequest(options: {
  readonly subject: Server;
  readonly baseline: Server;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly pairs: number;
  /** The status every answer must have (default: any 2xx). */
  readonly expectedStatus?: number;
}): Promise<PairedCost> {
  const load = {
    headers: options.headers ?? {},
    connections: options.connections,
    durationSeconds: options.durationSeconds,
  };
  const expected = options.expectedStatus;
  await round(options.subject, options.path, { ...load, durationSeconds: 1 }, expected);
  await round(options.baseline, options.path, { ...load, durationSeconds: 1 }, expected);
  const subject: RoundResult[] = [];
  const baseline: RoundResult[] = [];
  const ratios: number[] = [];
  for (let pair = 0; pair < options.pairs; pair++) {
    const order = pair % 2 === 0 ? ['baseline', 'subject'] : ['subject', 'baseline'];
    const results: Record<string, RoundResult> = {};
    for (const which of order) {
      const server = which === 'subject' ? options.subject : options.baseline;
      results[which] = await round(server, options.path, load, expected);
    }
    const mine = results.subject as RoundResult;
    const theirs = results.baseline as RoundResult;
    subject.push(mine);
    baseline.push(theirs);
    ratios.push(theirs.cpuMicrosPerRequest / mine.cpuMicrosPerRequest);
  }
  return { ratios, ratio: median(ratios), subject, baseline };
}

/**
 * Waits until the process `pid` stays nearly idle for half a second (e.g. the service's
 * edit workers warming up as it starts), so that no start-up work is counted to requests.
 */
export async function waitForIdle(pid: number, timeoutMs = 15_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += 500) {
    const before = processCpuMicros(pid);
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (processCpuMicros(pid) - before < 25_000) return;
  }
}
