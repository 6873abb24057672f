/**
 * The PostgreSQL backup procedure of docs/deployment.md (Backups), followed as written
 * against the throwaway cluster: `pg_dump --format=custom --no-owner` while the service runs
 * under edit load, `pg_restore --no-owner` into an empty database, the service started on
 * it (which runs any migrations), and the same checks as the SQLite backup test.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, inject, it } from 'vitest';
import { expectRestored, makeAccount, seedThroughApi, startEditLoad } from '../testing/backup-load';
import { adminQuery, postgresBinDir, uniqueName, withDatabase } from '../testing/postgres-cluster';
import { spawnService, type ServiceProcess } from '../testing/service-process';

const run = promisify(execFile);
const ENV = { RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' };
const root = mkdtempSync(join(tmpdir(), 'provisioning-pg-backup-'));
const clusterUrl = inject('postgresUrl');
const databases: string[] = [];
const services: ServiceProcess[] = [];

async function newDatabase(prefix: string): Promise<string> {
  const name = uniqueName(prefix);
  await adminQuery(clusterUrl, `CREATE DATABASE ${name}`);
  databases.push(name);
  return withDatabase(clusterUrl, name);
}

afterAll(async () => {
  for (const service of services) {
    service.child.kill('SIGKILL');
    await service.exited;
  }
  for (const name of databases) await adminQuery(clusterUrl, `DROP DATABASE ${name} WITH (FORCE)`);
  rmSync(root, { recursive: true, force: true });
});

it('pg_dump under edit load, pg_restore into an empty database: every edit acknowledged before the dump began is there', async () => {
  const bin = postgresBinDir() ?? '';
  const liveUrl = await newDatabase('backup_live');
  const liveEnv = { ...ENV, DATABASE_URL: liveUrl };
  const key = makeAccount([], liveEnv);
  const live = await spawnService([], liveEnv);
  services.push(live);
  const seed = await seedThroughApi(live.url, key);

  const load = startEditLoad(live.url, seed, 4);
  await load.untilMoreAcknowledged(20);
  const dump = join(root, 'provisioning.dump');
  const began = performance.now();
  await run(join(bin, 'pg_dump'), ['--format=custom', '--no-owner', `--file=${dump}`, liveUrl]);
  await load.untilMoreAcknowledged(10);
  await load.stop();
  const before = new Set(load.acknowledged.filter((edit) => edit.at < began).map((e) => e.id));
  expect(before.size).toBeGreaterThanOrEqual(20);
  expect(statSync(dump).size).toBeGreaterThan(0);

  const restoredUrl = await newDatabase('backup_restored');
  await run(join(bin, 'pg_restore'), [
    '--no-owner',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${restoredUrl}`,
    dump,
  ]);
  const restored = await spawnService([], { ...ENV, DATABASE_URL: restoredUrl });
  services.push(restored);
  await expectRestored(restored.url, seed, before);
}, 180_000);
