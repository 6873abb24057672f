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
