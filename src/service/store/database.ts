/**
 * Opens the SQLite database: WAL so readers never wait for the writer (the operator's
 * command line works while the server runs), foreign keys on, a busy timeout for the
 * moments two processes write, and the migrations.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from './migrations';

export type SqliteDatabase = Database.Database;

export const DATABASE_FILE = 'provisioning.sqlite';

export function openDatabase(dataDir: string): SqliteDatabase {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, DATABASE_FILE));
  // First, so that what follows waits for another process starting on the same file.
  db.pragma('busy_timeout = 5000');
  switchToWal(db);
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return db;
}

/**
 * Switching a new file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once
 * rather than calling the busy handler when another process holds it (two processes starting
 * on a new file together). So wait and retry here, for as long as the busy timeout.
 */
function switchToWal(db: SqliteDatabase): void {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const busy = error instanceof Database.SqliteError && error.code === 'SQLITE_BUSY';
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

/**
 * Runs the migrations the file has not had, all in one transaction that holds the write
 * lock. The version is read again under that lock: two processes that start together on a
 * new file (two `serve`s, or `serve` and the command line) both see it behind, and the
 * second must find the first's work done rather than create the tables again.
 */
export function migrate(db: SqliteDatabase): void {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  if (version() >= MIGRATIONS.length) return;
  db.transaction(() => {
    const current = version();
    MIGRATIONS.slice(current).forEach((migration, offset) => {
      db.exec(migration.sqlite);
      db.pragma(`user_version = ${current + offset + 1}`);
    });
  }).immediate();
}
