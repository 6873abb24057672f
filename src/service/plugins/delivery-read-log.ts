/**
 * Successful delivery reads (the view and assignment GETs answering 200 or 304) are counted,
 * not logged one line each: apps poll, and a fleet's polls would drown the log and cost
 * more CPU than the 304 itself. One summary line a minute per instance gives the counts by
 * status; failures (4xx, 5xx) keep their line per request. `DELIVERY_ACCESS_LOG=each` logs
 * every read instead (docs/operations.md).
 */
import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH, contract } from '../../contract/endpoints';

export type DeliveryAccessLog = 'summary' | 'each';

export const DELIVERY_ACCESS_LOG_MODES: readonly DeliveryAccessLog[] = ['summary', 'each'];

export interface DeliveryReadLogSettings {
  readonly mode: DeliveryAccessLog;
  /** How often the summary line is written (tests shorten it). */
  readonly intervalMs: number;
}

export const DEFAULT_DELIVERY_READ_LOG: DeliveryReadLogSettings = {
  mode: 'summary',
  intervalMs: 60_000,
};

/** The view's and the assignment's URLs, built from the contract's paths (not the stream). */
const DELIVERY_READ_URL = new RegExp(
  `^(?:${[contract.getDeliveryView.path, contract.getAssignment.path]
    .map((path) => `${API_BASE_PATH}${path}`.replace(/\{[a-z_]+\}/g, '[^/?#]+'))
    .join('|')})(?:\\?|$)`,
);

export function isDeliveryRead(method: string, url: string): boolean {
  return (method === 'GET' || method === 'HEAD') && DELIVERY_READ_URL.test(url);
}

/** Counts by status since the last summary. */
export class DeliveryReadTally {
  private counts: Record<string, number> = {};
  private any = false;

  count(status: number): void {
    this.counts[status] = (this.counts[status] ?? 0) + 1;
    this.any = true;
  }

  /** The counts so far, or undefined if there were none; starts counting again. */
  take(): Readonly<Record<string, number>> | undefined {
    if (!this.any) return undefined;
    const counts = this.counts;
    this.counts = {};
    this.any = false;
    return counts;
  }
}

/** Writes the tally's summary line every `intervalMs` while the app runs, and once at close. */
export function registerDeliveryReadSummary(
  app: FastifyInstance,
  tally: DeliveryReadTally,
  intervalMs: number,
): void {
  const write = () => {
    const counts = tally.take();
    if (counts) app.log.info({ delivery_reads: counts, interval_ms: intervalMs }, 'delivery reads');
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(write, intervalMs);
    // A summary never keeps the process alive.
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    write();
  });
}
