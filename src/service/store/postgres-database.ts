/**
 * Opens PostgreSQL (`DATABASE_URL=postgres://...`): a connection pool and the migrations.
 * Several instances may start at once on one database; an advisory lock held by the
 * migrating transaction makes the others wait, then find nothing left to run.
 */
import pg from 'pg';
import { asDatabaseUnavailable } from './database-unavailable';
import { MIGRATIONS } from './migrations';

export type PostgresPool = pg.Pool;

export interface PostgresSettings {
  readonly url: string;
  /** Connections this instance keeps at most (`DATABASE_POOL_SIZE`, default 10). */
  readonly poolSize?: number;
  /** How long opening a connection may take before it fails (default CONNECT_TIMEOUT_MS). */
  readonly connectTimeoutMs?: number;
}

export const DEFAULT_POOL_SIZE = 10;

/** A new connection not open by then fails: a database that does not answer gets 503s. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** The connection pool, without the migrations (`openPostgres` runs them). */
export function createPostgresPool(settings: PostgresSettings): PostgresPool {
  const connectTimeout = settings.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  // The timeout goes on each connection attempt only: the pool's own option would also fail
  // a request that waits its turn for a busy pool.
  class BoundedConnectClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeout });
    }
  }
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolSize ?? DEFAULT_POOL_SIZE,
    application_name: 'provisioning',
    Client: BoundedConnectClient,
    // A peer that vanished without closing (a failover's old primary) is found out.
    keepAlive: true,
  });
  // An idle connection that breaks (the server restarted) must not end the process: the
  // pool drops it, and the next query opens a new one or reports its own error.
  pool.on('error', () => undefined);
  return pool;
}

export async function openPostgres(settings: PostgresSettings): Promise<PostgresPool> {
  const pool = createPostgresPool(settings);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}

/**
 * Runs `work` in BEGIN ... COMMIT on a connection of its own: all of it commits, or none.
 * The pool listens for errors on idle connections only; while one is checked out, its
 * connection ending (a killed backend, a restart) is an `error` event that would end the
 * process unless someone listens. A connection that broke is dropped, not reused.
 */
export async function inTransaction<T>(
  pool: PostgresPool,
  work: (client: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    broken ??= asDatabaseUnavailable(error);
    // A broken connection's transaction is rolled back by the server; one that cannot roll
    // back is not used again.
    if (!broken)
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

export async function migratePostgres(pool: PostgresPool): Promise<void> {
  await inTransaction(pool, async (client) => {
    // One lock per schema, so tests in their own schemas do not wait for each other.
    await client.query(
      "SELECT pg_advisory_xact_lock(hashtext('provisioning migrations ' || current_schema()))",
    );
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const { rows } = await client.query<{ done: number }>(
      'SELECT COUNT(*)::int AS done FROM schema_migrations',
    );
    const done = rows[0]?.done ?? 0;
    for (const [offset, migration] of MIGRATIONS.slice(done).entries()) {
      await client.query(migration.postgres);
      await client.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [done + offset + 1, migration.name, new Date().toISOString()],
      );
    }
  });
}
