/**
 * A SQLite file made before review existed upgrades in place: its configs read with no
 * review (state none), its account with the default policy, and a draft can then be
 * reviewed.
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_POLICY } from '../../contract/reviews';
import { DATABASE_FILE, openDatabase } from './database';
import { MIGRATIONS } from './migrations';
import { SqliteStore } from './sqlite-store';

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const AT = '2026-11-22T10:00:00.000Z';
const REVIEW_MIGRATION = MIGRATIONS.findIndex((migration) => migration.name.startsWith('review'));

/** A file with the migrations before review's, one account and one draft. */
function fileBeforeReview(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, DATABASE_FILE));
  MIGRATIONS.slice(0, REVIEW_MIGRATION).forEach((migration) => db.exec(migration.sqlite));
  db.pragma(`user_version = ${REVIEW_MIGRATION}`);
  db.prepare(
    "INSERT INTO accounts (id, name, account_type, idp_organization_id, created_at) VALUES ('acc_1', 'A', 'standard', 'org_1', ?)",
  ).run(AT);
  db.prepare(
    `INSERT INTO configs (id, account_id, kind, label, yaml, revision, base_config_id, valid, error_count, warning_count, issues, created_at, updated_at)
     VALUES ('cfg_1', 'acc_1', 'draft', 'Old draft', 'apps: []\n', 3, NULL, 1, 0, 0, '[]', ?, ?)`,
  ).run(AT, AT);
  db.close();
}

describe('the review migration', () => {
  it('upgrades a file made before it, keeping every config without a review', async () => {
    expect(REVIEW_MIGRATION).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'provisioning-review-migration-'));
    dataDir = dir;
    fileBeforeReview(dir);

    const store = new SqliteStore(openDatabase(dir));
    try {
      const draft = await store.getConfig('acc_1', 'cfg_1');
      expect(draft).toMatchObject({ label: 'Old draft', revision: 3, review: null });
      expect(await store.getPolicy('acc_1')).toEqual(DEFAULT_ACCOUNT_POLICY);
      expect(
        (await store.listReviews('acc_1', 'cfg_1', { limit: 50, after: undefined })).items,
      ).toEqual([]);

      await store.changeConfigs('acc_1', { ids: ['cfg_1'] }, (tx) => {
        tx.setReview('cfg_1', {
          requested_by: 'a@example.com',
          requested_at: AT,
          publish_on_approval: false,
          verdicts: [],
        });
      });
      expect((await store.getConfig('acc_1', 'cfg_1'))?.review?.requested_by).toBe('a@example.com');
    } finally {
      await store.close();
    }
  });
});
