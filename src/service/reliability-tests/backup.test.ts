/**
 * Backups that restore (docs/deployment.md, Backups): `provisioning backup` run against the
 * real service while clients keep editing, `provisioning restore` into a new data
 * directory, and a service started on it holds every edit acknowledged before the backup
 * began, the live config, its history and the keys. Then what restore and backup refuse.
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../store/database';
import { MIGRATIONS } from '../store/migrations';
import {
  expectRestored,
  makeAccount,
  seedThroughApi,
  startEditLoad,
  type BackupSeed,
} from '../testing/backup-load';
import { BIN, spawnService, type ServiceProcess } from '../testing/service-process';

const root = mkdtempSync(join(tmpdir(), 'provisioning-backup-'));
const dataDir = join(root, 'data');
const backupFile = join(root, 'backup.sqlite');
const ENV = { RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' };

interface CliResult {
  readonly status: number | null;
  readonly json: Record<string, unknown> | undefined;
  readonly stderr: string;
}

function parsed(status: number | null, stdout: string, stderr: string): CliResult {
  const text = stdout.trim();
  return {
    status,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    stderr,
  };
}

function cli(...args: string[]): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return parsed(result.status, result.stdout, result.stderr);
}

/** The command line without blocking this process: the load's clients keep running. */
function cliAsync(...args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (status) => resolve(parsed(status, stdout, stderr))),
  );
}

let server: ServiceProcess | undefined;
let seed: BackupSeed;

beforeAll(async () => {
  const key = makeAccount(['--data-dir', dataDir]);
  server = await spawnService(['--data-dir', dataDir], ENV);
  seed = await seedThroughApi(server.url, key);
}, 60_000);

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited;
  rmSync(root, { recursive: true, force: true });
});

describe('provisioning backup and restore on SQLite', () => {
  it('backs up the running service under edit load; the restore holds every edit acknowledged before the backup began', async () => {
    const url = server?.url ?? '';
    const load = startEditLoad(url, seed, 4);
    await load.untilMoreAcknowledged(20);
    const began = performance.now();
    const backup = await cliAsync('backup', '--to', backupFile, '--data-dir', dataDir);
    const ended = performance.now();
    // The service kept taking edits after the backup: it was neither stopped nor held.
    await load.untilMoreAcknowledged(10);
    await load.stop();

    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    expect(backup.json).toMatchObject({
      file: backupFile,
      integrity: 'ok',
      schema_version: MIGRATIONS.length,
      accounts: 1,
      api_keys: 3,
    });
    expect(backup.json?.bytes).toBe(readFileSync(backupFile).length);
    // One self-contained file: no WAL beside it.
    expect(existsSync(`${backupFile}-wal`)).toBe(false);

    const before = new Set(load.acknowledged.filter((edit) => edit.at < began).map((e) => e.id));
    const after = load.acknowledged.filter((edit) => edit.at > ended);
    expect(before.size).toBeGreaterThanOrEqual(20);
    expect(after.length).toBeGreaterThanOrEqual(10);

    // A running service's data directory is never overwritten.
    const onLive = cli('restore', '--from', backupFile, '--data-dir', dataDir);
    expect(onLive.status).toBe(1);
    expect(onLive.stderr.trim()).toBe(
      `provisioning restore: ${dataDir} is in use: a running service has its database open. Restore into a new data directory and start the service on that one`,
    );

    const restoredDir = join(root, 'restored');
    const restore = cli('restore', '--from', backupFile, '--data-dir', restoredDir);
    expect(restore.stderr).toBe('');
    expect(restore.json).toMatchObject({
      data_dir: restoredDir,
      integrity: 'ok',
      schema_version: MIGRATIONS.length,
      migrations_to_run: 0,
    });
    const restored = await spawnService(['--data-dir', restoredDir], ENV);
    try {
      await expectRestored(restored.url, seed, before);
    } finally {
      restored.child.kill('SIGTERM');
      await restored.exited;
    }
  }, 120_000);

  it('refuses to overwrite a backup unless --force, and replaces it whole with --force', () => {
    const file = join(root, 'twice.sqlite');
    expect(cli('backup', '--to', file, '--data-dir', dataDir).status).toBe(0);
    writeFileSync(file, 'an older backup');
    const refused = cli('backup', '--to', file, '--data-dir', dataDir);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `provisioning backup: ${file} exists; pass --force to replace it`,
    );
    expect(readFileSync(file, 'utf8')).toBe('an older backup');
    const forced = cli('backup', '--to', file, '--data-dir', dataDir, '--force');
    expect(forced.status).toBe(0);
    expect(forced.json).toMatchObject({ integrity: 'ok' });
    expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
  }, 60_000);

  it('refuses a directory that holds a database even when no service runs on it', () => {
    const stopped = join(root, 'stopped');
    expect(cli('restore', '--from', backupFile, '--data-dir', stopped).status).toBe(0);
    const again = cli('restore', '--from', backupFile, '--data-dir', stopped);
    expect(again.status).toBe(1);
    expect(again.stderr.trim()).toBe(
      `provisioning restore: ${stopped} already holds a database (${DATABASE_FILE}); restore only into a new or empty data directory`,
    );
  }, 30_000);

  it('refuses what is not a whole database of ours, and leaves no data directory behind', () => {
    const text = join(root, 'notes.txt');
    writeFileSync(text, 'not a database at all\n'.repeat(100));

    const foreign = join(root, 'foreign.sqlite');
    const other = new Database(foreign);
    other.exec('CREATE TABLE things (id INTEGER PRIMARY KEY)');
    other.pragma('user_version = 1');
    other.close();

    const newer = join(root, 'newer.sqlite');
    writeFileSync(newer, readFileSync(backupFile));
    const future = new Database(newer);
    future.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    future.close();

    // Pages in the middle of a real backup overwritten: the tables' trees no longer hold.
    const damaged = join(root, 'damaged.sqlite');
    const bytes = readFileSync(backupFile);
    bytes.fill(0x5a, 4096 * 3, bytes.length - 4096 * 3);
    writeFileSync(damaged, bytes);

    const cases = [
      [text, `${text} is not a usable database: file is not a database`],
      [
        foreign,
        `${foreign} is an SQLite database but not a Provisioning Console one (no accounts, users, api_keys, configs, live_configs, history)`,
      ],
      [
        newer,
        `${newer} is at schema version ${MIGRATIONS.length + 1}, newer than this build knows (${MIGRATIONS.length}): restore it with the version of the service that made it`,
      ],
      [join(root, 'missing.sqlite'), `there is no file ${join(root, 'missing.sqlite')}`],
    ] as const;
    for (const [file, message] of cases) {
      const target = join(root, 'never');
      const refused = cli('restore', '--from', file, '--data-dir', target);
      expect(refused.status, file).toBe(1);
      expect(refused.stderr.trim()).toBe(`provisioning restore: ${message}`);
      expect(existsSync(target)).toBe(false);
    }
    const corrupt = cli('restore', '--from', damaged, '--data-dir', join(root, 'never'));
    expect(corrupt.status).toBe(1);
    expect(corrupt.stderr).toMatch(
      /^provisioning restore: .*damaged\.sqlite (is damaged: integrity_check says|is not a usable database: database disk image is malformed)/,
    );
    expect(existsSync(join(root, 'never'))).toBe(false);

    // An empty directory is a new one: restoring into it is fine.
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(cli('restore', '--from', backupFile, '--data-dir', empty).status).toBe(0);
  }, 60_000);

  it('refuses to back up or restore PostgreSQL, and points at its own tools', () => {
    const withPostgres = (...args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], {
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      });
    const backup = withPostgres('backup', '--to', join(root, 'pg.dump'));
    expect(backup.status).toBe(1);
    expect(backup.stderr.trim()).toBe(
      'provisioning backup: the data is in PostgreSQL (DATABASE_URL): use pg_dump --format=custom --no-owner as docs/deployment.md (Backups) describes',
    );
    const restore = withPostgres('restore', '--from', backupFile, '--data-dir', join(root, 'pg'));
    expect(restore.status).toBe(1);
    expect(restore.stderr).toContain('use pg_dump, then pg_restore,');
  });
});
