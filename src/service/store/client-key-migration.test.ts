/**
 * A SQLite file made before client keys existed upgrades in place: it has none, can make
 * one, and the delivery lookup finds the key with its account's live config.
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openDatabase } from './database';
import { MIGRATIONS } from './migrations';
import { SqliteStore } from './sqlite-store';

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const AT = '2026-11-22T10:00:00.000Z';
const CLIENT_KEYS_MIGRATION = MIGRATIONS.findIndex((migration) =>
  migration.name.startsWith('client keys'),
);

function fileBeforeClientKeys(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, DATABASE_FILE));
  MIGRATIONS.slice(0, CLIENT_KEYS_MIGRATION).forEach((migration) => db.exec(migration.sqlite));
  db.pragma(`user_version = ${CLIENT_KEYS_MIGRATION}`);
  db.prepare(
    "INSERT INTO accounts (id, name, account_type, idp_organization_id, created_at) VALUES ('acc_1', 'A', 'standard', 'org_1', ?)",
  ).run(AT);
  db.prepare(
    `INSERT INTO configs (id, account_id, kind, label, yaml, revision, base_config_id, valid, error_count, warning_count, issues, created_at, updated_at, published_at)
     VALUES ('cfg_1', 'acc_1', 'published', 'Live', 'apps: []\n', 4, NULL, 1, 0, 0, '[]', ?, ?, ?)`,
  ).run(AT, AT, AT);
  db.prepare("INSERT INTO live_configs (account_id, config_id) VALUES ('acc_1', 'cfg_1')").run();
  db.close();
}

describe('the client keys migration', () => {
  it('upgrades a file made before it', async () => {
    expect(CLIENT_KEYS_MIGRATION).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'provisioning-client-key-migration-'));
    dataDir = dir;
    fileBeforeClientKeys(dir);

    const store = new SqliteStore(openDatabase(dir));
    try {
      expect((await store.listClientKeys('acc_1', { limit: 200, after: undefined })).items).toEqual(
        [],
      );
      const key = {
        id: 'ckey_1',
        account_id: 'acc_1',
        name: 'Web',
        key: 'ck_abcdefghijklmnopqrstuvwx',
        apps: ['web'],
        created_at: AT,
        revoked_at: null,
      };
      const audit = {
        account_id: 'acc_1',
        at: AT,
        action: 'client_key.create',
        actor: null,
        target_id: 'ckey_1',
        detail: {},
      };
      await store.insertClientKey(key, audit, 100);
      expect((await store.listClientKeys('acc_1', { limit: 200, after: undefined })).items).toEqual(
        [key],
      );
      expect(store.findDeliveryKeyNow(key.key)).toEqual({
        key,
        live: { id: 'cfg_1', revision: 4, published_at: AT, live_since: AT },
      });
      expect(store.findDeliveryKeyNow('ck_unknown')).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
