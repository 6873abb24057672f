/**
 * A SQLite file made before the live config kept since when it is live upgrades in place:
 * the time comes from the config's latest history entry that made it live (a rollback's
 * activation, not its first publish), or from its publish when it has none.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
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

const PUBLISHED = '2026-11-20T10:00:00.000Z';
const ACTIVATED = '2026-11-22T10:00:00.000Z';
const LATER_EDIT = '2026-11-23T10:00:00.000Z';
const LIVE_SINCE_MIGRATION = MIGRATIONS.findIndex((migration) =>
  migration.name.startsWith('live since'),
);

function fileBeforeLiveSince(dir: string): void {
  const db = new Database(join(dir, DATABASE_FILE));
  MIGRATIONS.slice(0, LIVE_SINCE_MIGRATION).forEach((migration) => db.exec(migration.sqlite));
  db.pragma(`user_version = ${LIVE_SINCE_MIGRATION}`);
  for (const account of ['acc_1', 'acc_2']) {
    db.prepare(
      "INSERT INTO accounts (id, name, account_type, idp_organization_id, created_at) VALUES (?, 'A', 'standard', ?, ?)",
    ).run(account, `org_${account}`, PUBLISHED);
    db.prepare(
      `INSERT INTO configs (id, account_id, kind, label, yaml, revision, base_config_id, valid, error_count, warning_count, issues, created_at, updated_at, published_at)
       VALUES (?, ?, 'published', 'Live', 'apps: []\n', 1, NULL, 1, 0, 0, '[]', ?, ?, ?)`,
    ).run(`cfg_${account}`, account, PUBLISHED, PUBLISHED, PUBLISHED);
    db.prepare('INSERT INTO live_configs (account_id, config_id) VALUES (?, ?)').run(
      account,
      `cfg_${account}`,
    );
  }
  // acc_1's config was published, then made live again; an entry that makes nothing live
  // (a review asked for) comes later and does not count.
  const history = db.prepare(
    `INSERT INTO history (account_id, config_id, action, at, revision, operations, applied_paths)
     VALUES ('acc_1', 'cfg_acc_1', ?, ?, 1, '[]', '[]')`,
  );
  history.run('publish', PUBLISHED);
  history.run('activate', ACTIVATED);
  history.run('review_request', LATER_EDIT);
  db.close();
}

describe('the live since migration', () => {
  it('dates each live config from the entry that last made it live, else its publish', async () => {
    expect(LIVE_SINCE_MIGRATION).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'provisioning-live-since-migration-'));
    dataDir = dir;
    fileBeforeLiveSince(dir);

    const store = new SqliteStore(openDatabase(dir));
    try {
      expect(await store.getLiveStamp('acc_1')).toEqual({
        id: 'cfg_acc_1',
        revision: 1,
        published_at: PUBLISHED,
        live_since: ACTIVATED,
      });
      expect((await store.getLiveStamp('acc_2'))?.live_since).toBe(PUBLISHED);
    } finally {
      await store.close();
    }
  });
});
