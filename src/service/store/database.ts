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
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return db;
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
