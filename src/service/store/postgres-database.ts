/**
 * Opens PostgreSQL (`DATABASE_URL=postgres://...`): a connection pool and the migrations.
 * Several instances may start at once on one database; an advisory lock held by the
 * migrating transaction makes the others wait, then find nothing left to run.
 */
import pg from 'pg';
import { MIGRATIONS } from './migrations';

export type PostgresPool = pg.Pool;

export interface PostgresSettings {
  readonly url: string;
  /** Connections this instance keeps at most (`DATABASE_POOL_SIZE`, default 10). */
  readonly poolSize?: number;
}

export const DEFAULT_POOL_SIZE = 10;

export async function openPostgres(settings: PostgresSettings): Promise<PostgresPool> {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolSize ?? DEFAULT_POOL_SIZE,
    application_name: 'provisioning',
  });
  // An idle connection that breaks (the server restarted) must not end the process: the
  // pool drops it, and the next query opens a new one or reports its own error.
  pool.on('error', () => undefined);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}

export async function migratePostgres(pool: PostgresPool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
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
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
