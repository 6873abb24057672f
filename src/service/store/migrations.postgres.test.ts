/**
 * The two dialects of the migrations (migrations.ts) make the same tables with the same
 * columns; PostgreSQL's run once however many instances start together; DATABASE_URL picks
 * PostgreSQL. Runs in the Vitest project `postgres` only: it needs both databases.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { settingsFromEnv } from '../settings';
import { adminQuery, uniqueName, withSchema } from '../testing/postgres-cluster';
import { openDatabase } from './database';
import { MIGRATIONS } from './migrations';
import { openPostgres, type PostgresPool } from './postgres-database';
import { PostgresStore } from './postgres-store';
import { describeStore, openStore } from './open-store';

const cleanUps: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

async function freshSchema(): Promise<string> {
  const clusterUrl = inject('postgresUrl');
  const schema = uniqueName('migrations');
  await adminQuery(clusterUrl, `CREATE SCHEMA ${schema}`);
  cleanUps.push(() => adminQuery(clusterUrl, `DROP SCHEMA ${schema} CASCADE`));
  return withSchema(clusterUrl, schema);
}

async function open(url: string): Promise<PostgresPool> {
  const pool = await openPostgres({ url, poolSize: 2 });
  cleanUps.push(() => pool.end());
  return pool;
}

function sqliteColumns(): Map<string, string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-migrations-'));
  const db = openDatabase(dataDir);
  try {
    // Ordinary tables only: the label search's FTS5 table and its own tables are SQLite's
    // form of what PostgreSQL keeps as an index.
    const tables = db
      .prepare(
        "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'",
      )
      .pluck()
      .all() as string[];
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    return new Map(
      tables.map((table) => [
        table,
        (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).sort(),
      ]),
    );
  } finally {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresColumns(pool: PostgresPool): Promise<Map<string, string[]>> {
  const { rows } = await pool.query<{ table_name: string; column_name: string }>(
    'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY column_name',
  );
  const tables = new Map<string, string[]>();
  for (const row of rows)
    tables.set(row.table_name, [...(tables.get(row.table_name) ?? []), row.column_name]);
  return tables;
}

async function migrationsRun(pool: PostgresPool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT COUNT(*)::int AS n FROM schema_migrations',
  );
  return rows[0]?.n ?? -1;
}

describe('the migrations', () => {
  it('make the same tables and columns in SQLite and PostgreSQL', async () => {
    const pool = await open(await freshSchema());
    const postgres = await postgresColumns(pool);
    // PostgreSQL's own bookkeeping, and seq, which stands in for SQLite's rowid.
    expect(postgres.get('schema_migrations')).toEqual(['applied_at', 'name', 'version']);
    postgres.delete('schema_migrations');
    postgres.set(
      'configs',
      (postgres.get('configs') ?? []).filter((column) => column !== 'seq'),
    );
    const sqlite = sqliteColumns();
    expect([...postgres.keys()].sort()).toEqual([...sqlite.keys()].sort());
    for (const [table, columns] of sqlite) expect(postgres.get(table), table).toEqual(columns);
    expect(await migrationsRun(pool)).toBe(MIGRATIONS.length);
  });

  it('give PostgreSQL a trigram index that serves the label search (ILIKE)', async () => {
    const pool = await open(await freshSchema());
    const client = await pool.connect();
    try {
      // Few rows: the planner would read them all; told not to, it shows the index it can use.
      await client.query('SET enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        "EXPLAIN SELECT id FROM configs WHERE label ILIKE '%spring\\_sale%' ESCAPE '\\'",
      );
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('configs_label_trigrams');
    } finally {
      client.release();
    }
  });

  it('run once on PostgreSQL, however many instances start at once', async () => {
    const url = await freshSchema();
    const pools = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    for (const pool of pools) expect(await migrationsRun(pool)).toBe(MIGRATIONS.length);
    // Opening again finds nothing to do.
    const again = await open(url);
    expect(await migrationsRun(again)).toBe(MIGRATIONS.length);
    const { rows } = await again.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });
});

describe('DATABASE_URL', () => {
  it('picks PostgreSQL, and the data directory is not used', async () => {
    const url = await freshSchema();
    const settings = settingsFromEnv({ DATABASE_URL: url, DATA_DIR: '/nonexistent/never' });
    expect(settings.databaseUrl).toBe(url);
    const store = await openStore(settings);
    cleanUps.push(() => store.close());
    expect(store).toBeInstanceOf(PostgresStore);
    expect(await store.hasAccounts()).toBe(false);
  });

  it('must be a postgres:// URL', () => {
    expect(() => settingsFromEnv({ DATABASE_URL: 'mysql://localhost/db' })).toThrow(
      /DATABASE_URL must be a postgres:\/\/ URL/,
    );
    expect(settingsFromEnv({ DATABASE_URL: '' }).databaseUrl).toBe(undefined);
  });

  it('is shown without its password', () => {
    expect(
      describeStore({
        dataDir: './data',
        databaseUrl: 'postgres://app:s3cret@db.internal:5432/prov',
      }),
    ).toBe('postgres://app:***@db.internal:5432/prov');
    expect(describeStore({ dataDir: './data' })).toBe('./data');
  });
});
