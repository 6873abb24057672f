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
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return db;
}

export function migrate(db: SqliteDatabase): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  MIGRATIONS.slice(current).forEach((migration, offset) => {
    db.transaction(() => {
      db.exec(migration.sqlite);
      db.pragma(`user_version = ${current + offset + 1}`);
    }).immediate();
  });
}
