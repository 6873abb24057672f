/**
 * The store behind a test service: a temporary SQLite file (the default), or, in the Vitest
 * project `postgres`, a schema of its own in the throwaway cluster that the project's global
 * set-up starts (postgres-global-setup.ts). The API suite runs on both. Test-only.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { TextMemo } from '../store/configs/stored-text';
import { DATABASE_FILE, openDatabase, type SqliteDatabase } from '../store/database';
import { openPostgres } from '../store/postgres-database';
import { PostgresStore } from '../store/postgres-store';
import { SqliteStore } from '../store/sqlite-store';
import type { Store } from '../store/store';
import { adminQuery, uniqueName, withSchema } from './postgres-cluster';

export type StoreKind = 'sqlite' | 'postgres';

/** Connections a test's PostgreSQL store keeps at most. */
export const TEST_POOL_SIZE = 4;

/** Which store this test run uses: the Vitest project sets TEST_STORE. */
export function testStoreKind(): StoreKind {
  return process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestStore {
  readonly kind: StoreKind;
  readonly store: Store;
  /** A temporary directory of the test (SQLite's file is there). */
  readonly dataDir: string;
  /** PostgreSQL: the URL of the test's schema, for connections of a test's own. */
  readonly postgresUrl?: string;
  /** Rows of a query; `?` placeholders, in SQL both dialects read. */
  rows<R>(sql: string, ...params: unknown[]): Promise<R[]>;
  /**
   * Every byte the database keeps on disk: its files and its write-ahead log, as they are,
   * or (`checkpoint`) after the log is written back into the files.
   */
  storageBytes(options?: { checkpoint?: boolean }): Promise<Buffer>;
  /**
   * Another store on the same database, with connections of its own, as another process
   * (SQLite) or instance (PostgreSQL) has, and its own memo of packed text (or `texts`);
   * closed by dispose.
   */
  openSecondStore(texts?: TextMemo): Promise<Store>;
  dispose(): Promise<void>;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return [];
    return stat.isDirectory() ? filesUnder(path) : stat.isFile() ? [path] : [];
  });
}

function readAll(paths: readonly string[]): Buffer {
  return Buffer.concat(
    paths.flatMap((path) => {
      if (!existsSync(path)) return [];
      try {
        return [readFileSync(path)];
      } catch {
        return []; // removed while we listed (a WAL segment recycled)
      }
    }),
  );
}

function sqliteTestStore(dataDir: string, texts: TextMemo | undefined): TestStore {
  const db: SqliteDatabase = openDatabase(dataDir);
  const store = new SqliteStore(db, texts);
  const others: Store[] = [];
  return {
    kind: 'sqlite',
    store,
    dataDir,
    async rows<R>(sql: string, ...params: unknown[]) {
      return db.prepare(sql).all(...params) as R[];
    },
    async storageBytes(options = {}) {
      if (options.checkpoint) db.pragma('wal_checkpoint(TRUNCATE)');
      return readAll(
        ['', '-wal', '-shm', '-journal'].map((suffix) =>
          join(dataDir, `${DATABASE_FILE}${suffix}`),
        ),
      );
    },
    async openSecondStore(otherTexts?: TextMemo) {
      const other = new SqliteStore(openDatabase(dataDir), otherTexts);
      others.push(other);
      return other;
    },
    async dispose() {
      for (const other of others) await other.close();
      await store.close();
    },
  };
}

async function postgresTestStore(dataDir: string, texts: TextMemo | undefined): Promise<TestStore> {
  const clusterUrl = inject('postgresUrl');
  const schema = uniqueName('test');
  await adminQuery(clusterUrl, `CREATE SCHEMA ${schema}`);
  const url = withSchema(clusterUrl, schema);
  const pool = await openPostgres({ url, poolSize: TEST_POOL_SIZE });
  const store = new PostgresStore(pool, texts);
  const others: Store[] = [];
  return {
    kind: 'postgres',
    store,
    dataDir,
    postgresUrl: url,
    async rows<R>(sql: string, ...params: unknown[]) {
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      return (await pool.query(text, params)).rows as R[];
    },
    async storageBytes(options = {}) {
      if (options.checkpoint) await adminQuery(clusterUrl, 'CHECKPOINT');
      return readAll(filesUnder(inject('postgresDataDir')));
    },
    async openSecondStore(otherTexts?: TextMemo) {
      const other = new PostgresStore(await openPostgres({ url, poolSize: 4 }), otherTexts);
      others.push(other);
      return other;
    },
    async dispose() {
      for (const other of others) await other.close();
      await store.close();
      await adminQuery(clusterUrl, `DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

/** `texts`: the store's memo of packed text (a new one by default). */
export async function openTestStore(options: { texts?: TextMemo } = {}): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-test-'));
  try {
    return testStoreKind() === 'postgres'
      ? await postgresTestStore(dataDir, options.texts)
      : sqliteTestStore(dataDir, options.texts);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
