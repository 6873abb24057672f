/**
 * Health, for `GET /health`: whether the database answers, bounded in time and cheap to ask
 * often. SQLite reads its file (WAL: no writer holds it up); PostgreSQL goes by the outcome
 * of the store's latest query (DatabaseHealth), and probes only when there was none lately.
 */
export type DatabaseState = 'ok' | 'unavailable';

/** How long the outcome of the latest query stands for the database's state. */
export const HEALTH_FRESH_MS = 2_000;
/** A probe not answered by then counts as the database not answering. */
export const HEALTH_PROBE_TIMEOUT_MS = 1_500;

/**
 * The database's state for `GET /health`, without a query per call: the outcome of the
 * store's latest query while it is recent, else one probe (shared by the callers that wait
 * for it) that answers within HEALTH_PROBE_TIMEOUT_MS whatever the database does.
 */
export class DatabaseHealth {
  private state: DatabaseState = 'ok';
  private at = Number.NEGATIVE_INFINITY;
  private probing: Promise<DatabaseState> | undefined;

  constructor(
    private readonly probe: () => Promise<unknown>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  answered(): void {
    this.state = 'ok';
    this.at = this.now();
  }

  failed(): void {
    this.state = 'unavailable';
    this.at = this.now();
  }

  check(): Promise<DatabaseState> {
    if (this.now() - this.at < HEALTH_FRESH_MS) return Promise.resolve(this.state);
    this.probing ??= this.runProbe().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  private async runProbe(): Promise<DatabaseState> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'unavailable'>((resolve) => {
      timer = setTimeout(() => resolve('unavailable'), HEALTH_PROBE_TIMEOUT_MS);
    });
    const probed = this.probe().then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    );
    const state = await Promise.race([probed, timedOut]);
    clearTimeout(timer);
    if (state === 'ok') this.answered();
    else this.failed();
    return state;
  }
}
