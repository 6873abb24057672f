/**
 * The database not answering, told apart from a bug: a connection refused, reset or ended by
 * the server (restart, failover, a killed backend), a connection attempt that timed out, or
 * SQLite's file locked past the busy timeout or failing to read or write. The request that
 * met it gets a 503 and may be sent again; anything else stays a 500.
 */
import Database from 'better-sqlite3';

export class DatabaseUnavailable extends Error {
  constructor(cause: unknown) {
    super(
      `The database is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
    this.name = 'DatabaseUnavailable';
  }
}

/** Socket errors of a database that cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs of a session it ended or would not start: 57P01 admin_shutdown
 * (a terminated backend, a fast shutdown), 57P02 crash_shutdown, 57P03 cannot_connect_now
 * (starting up, shutting down, in recovery), 53300 too_many_connections; and class 08, the
 * connection exceptions.
 */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres's own words for a connection that broke or never opened in time. */
const POSTGRES_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout expired$|timeout exceeded when trying to connect$|Query read timeout$)/;

/** better-sqlite3's codes (extended codes start with the primary one). */
const SQLITE_CODES = /^SQLITE_(BUSY|IOERR|FULL)/;

function isConnectionFailure(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  if (error instanceof DatabaseUnavailable) return true;
  if (error instanceof Database.SqliteError) return SQLITE_CODES.test(error.code);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || POSTGRES_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
      return true;
  }
  if (POSTGRES_MESSAGES.test(error.message)) return true;
  // A connection to a name with several addresses fails with each address's error.
  if (error instanceof AggregateError)
    return error.errors.some((inner) => isConnectionFailure(inner, depth + 1));
  return isConnectionFailure(error.cause, depth + 1);
}

/** The error as a DatabaseUnavailable when it says the database cannot be reached. */
export function asDatabaseUnavailable(error: unknown): DatabaseUnavailable | undefined {
  if (error instanceof DatabaseUnavailable) return error;
  return isConnectionFailure(error) ? new DatabaseUnavailable(error) : undefined;
}

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
