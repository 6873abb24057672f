/**
 * Backups of the SQLite store while the service runs, and their restore into a new data
 * directory (docs/deployment.md, Backups). Both write under a temporary name beside the
 * target and move it into place only once the copy has passed its checks, so a failure
 * never leaves a half-written file under the real name.
 */
import Database from 'better-sqlite3';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DATABASE_FILE } from './database';
import { MIGRATIONS } from './migrations';

/** A backup or restore that must not go ahead; its message says why, in one line. */
export class BackupRefused extends Error {}

/** What a checked copy holds. */
export interface DatabaseSummary {
  readonly bytes: number;
  /** Migrations the copy has had (`PRAGMA user_version`). */
  readonly schema_version: number;
  readonly accounts: number;
  readonly configs: number;
  readonly history_entries: number;
  readonly api_keys: number;
}

export interface BackupReport extends DatabaseSummary {
  readonly file: string;
  readonly integrity: 'ok';
  /** Times another process's commit made the copy start over (see PAGES_PER_STEP). */
  readonly restarts: number;
  readonly duration_ms: number;
}

export interface RestoreReport extends DatabaseSummary {
  readonly data_dir: string;
  readonly from: string;
  readonly integrity: 'ok';
  /** Migrations the service will run on its next start (0: the copy is of this version). */
  readonly migrations_to_run: number;
}

/**
 * Pages copied per step (4 MiB at SQLite's default page size): each step is a short read
 * of the file. A commit by the service between steps starts the copy over, so after one
 * pass that made no progress the rest is copied in a single step: in WAL mode that step's
 * read snapshot never blocks the service's writers.
 */
const PAGES_PER_STEP = 1024;
const ALL_REMAINING_PAGES = 0x7fffffff;

/** Tables the first migration made: a file without them is not one of our databases. */
const OUR_TABLES = ['accounts', 'users', 'api_keys', 'configs', 'live_configs', 'history'];

export async function backupSqlite(
  dataDir: string,
  to: string,
  options: { readonly force: boolean },
): Promise<BackupReport> {
  const started = performance.now();
  const source = join(dataDir, DATABASE_FILE);
  if (!existsSync(source))
    throw new BackupRefused(`there is no database in ${dataDir} (${DATABASE_FILE})`);
  const target = resolve(to);
  if (!existsSync(dirname(target)))
    throw new BackupRefused(`the directory ${dirname(target)} does not exist`);
  if (existsSync(target) && !options.force)
    throw new BackupRefused(`${to} exists; pass --force to replace it`);
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });

  const db = new Database(source, { fileMustExist: true, timeout: 5_000 });
  let restarts = 0;
  try {
    const sourceVersion = db.pragma('user_version', { simple: true }) as number;
    let remainingBefore = Infinity;
    await db.backup(partial, {
      progress: ({ remainingPages }) => {
        if (remainingPages >= remainingBefore) restarts++;
        remainingBefore = remainingPages;
        return restarts > 0 ? ALL_REMAINING_PAGES : PAGES_PER_STEP;
      },
    });
    const summary = checkCopy(partial, to);
    if (summary.schema_version !== sourceVersion)
      throw new BackupRefused(
        `the copy is at schema version ${summary.schema_version}, the database at ${sourceVersion}`,
      );
    syncFile(partial);
    moveIntoPlace(partial, target, { replace: options.force }, () => {
      throw new BackupRefused(`${to} appeared while the copy was made; pass --force to replace it`);
    });
    return {
      file: target,
      ...summary,
      integrity: 'ok',
      restarts,
      duration_ms: Math.round(performance.now() - started),
    };
  } finally {
    db.close();
    rmSync(partial, { force: true });
  }
}

export function restoreSqlite(from: string, dataDir: string): RestoreReport {
  const source = resolve(from);
  if (!existsSync(source)) throw new BackupRefused(`there is no file ${from}`);
  refuseUsedDataDir(dataDir);
  // A refused restore leaves no directory of its own making behind.
  const made = mkdirSync(dataDir, { recursive: true });
  const target = join(dataDir, DATABASE_FILE);
  const partial = join(dataDir, `${DATABASE_FILE}.restoring-${process.pid}`);
  let restored = false;
  try {
    // The copy is what gets checked: what the service will open, not only what was read.
    copyFileSync(source, partial);
    const summary = checkCopy(partial, from);
    if (summary.schema_version > MIGRATIONS.length)
      throw new BackupRefused(
        `${from} is at schema version ${summary.schema_version}, newer than this build knows (${MIGRATIONS.length}): restore it with the version of the service that made it`,
      );
    syncFile(partial);
    moveIntoPlace(partial, target, { replace: false }, () => {
      throw new BackupRefused(`a database appeared in ${dataDir} while the copy was checked`);
    });
    restored = true;
    return {
      data_dir: dataDir,
      from: source,
      ...summary,
      integrity: 'ok',
      migrations_to_run: MIGRATIONS.length - summary.schema_version,
    };
  } finally {
    rmSync(partial, { force: true });
    if (!restored && made !== undefined) rmSync(made, { recursive: true, force: true });
  }
}

/**
 * A data directory with a database in it is never overwritten: if a running service holds
 * it, replacing the file under it would lose its writes and could corrupt what it writes
 * next; if none does, it is still somebody's data.
 */
function refuseUsedDataDir(dataDir: string): void {
  const files = [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`].filter((name) =>
    existsSync(join(dataDir, name)),
  );
  if (files.length === 0) return;
  if (isOpenElsewhere(join(dataDir, DATABASE_FILE)))
    throw new BackupRefused(
      `${dataDir} is in use: a running service has its database open. Restore into a new data directory and start the service on that one`,
    );
  throw new BackupRefused(
    `${dataDir} already holds a database (${files.join(', ')}); restore only into a new or empty data directory`,
  );
}

/**
 * Whether another process has the database open. Every connection in WAL mode holds a
 * shared lock on the file for as long as it is open, so an exclusive lock is refused at
 * once (no busy wait) exactly while some process holds it.
 */
function isOpenElsewhere(file: string): boolean {
  if (!existsSync(file)) return false;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
    return false;
  } catch (error) {
    return error instanceof Database.SqliteError && error.code === 'SQLITE_BUSY';
  } finally {
    db?.close();
  }
}

/**
 * Checks a copy before anyone relies on it: a whole SQLite file (`integrity_check`), one of
 * ours (the first migration's tables and a schema version), and counts what it holds. The
 * copy is left in rollback-journal mode, one self-contained file; the service switches it
 * back to WAL when it opens it.
 */
function checkCopy(file: string, name: string): DatabaseSummary {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    db.pragma('journal_mode = DELETE');
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map(
      (row) => row.integrity_check,
    );
    if (integrity.join() !== 'ok')
      throw new BackupRefused(
        `${name} is damaged: integrity_check says ${integrity.slice(0, 3).join('; ')}`,
      );
    const tables = new Set(
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[],
    );
    const version = db.pragma('user_version', { simple: true }) as number;
    const missing = OUR_TABLES.filter((table) => !tables.has(table));
    if (version < 1 || missing.length > 0)
      throw new BackupRefused(
        `${name} is an SQLite database but not a Provisioning Console one (no ${missing.join(', ') || 'schema version'})`,
      );
    const count = (table: string) =>
      db?.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
    return {
      bytes: statSync(file).size,
      schema_version: version,
      accounts: count('accounts'),
      configs: count('configs'),
      history_entries: count('history'),
      api_keys: count('api_keys'),
    };
  } catch (error) {
    if (error instanceof BackupRefused) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new BackupRefused(`${name} is not a usable database: ${message}`);
  } finally {
    db?.close();
  }
}

/**
 * Gives the checked copy its real name: a rename when replacing is allowed, else a hard
 * link, which fails rather than replace a file that appeared meanwhile (`onExists`).
 */
function moveIntoPlace(
  partial: string,
  target: string,
  options: { readonly replace: boolean },
  onExists: () => never,
): void {
  if (options.replace) {
    renameSync(partial, target);
  } else {
    try {
      linkSync(partial, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') onExists();
      throw error;
    }
    rmSync(partial);
  }
  syncFile(dirname(target));
}

/** On disk before the rename, and the rename itself once the directory is synced. */
function syncFile(path: string): void {
  const descriptor = openSync(path, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
