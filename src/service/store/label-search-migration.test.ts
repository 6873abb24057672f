/**
 * The label search's trigram index on a SQLite file made before it: the migration fills it
 * with the configs already there, and the triggers keep it in step with configs after.
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openDatabase } from './database';
import { LIST_CONFIGS_BY_TRIGRAMS } from './configs/configs';
import { MIGRATIONS } from './migrations';
import type { PageKey } from './pages';
import { SqliteStore } from './sqlite-store';

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const AT = '2026-11-22T10:00:00.000Z';
const LABEL_MIGRATION = MIGRATIONS.findIndex((migration) =>
  migration.name.startsWith('label search'),
);
const ROWID_MIGRATION = MIGRATIONS.findIndex((migration) =>
  migration.name.startsWith('label search: each indexed label under its config rowid'),
);
/** Newer configs than a page of one reads in order before it asks the trigram index. */
const NEWER = 25;

function fileBefore(dir: string, migrations: number): Database.Database {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, DATABASE_FILE));
  MIGRATIONS.slice(0, migrations).forEach((migration) => db.exec(migration.sqlite));
  db.pragma(`user_version = ${migrations}`);
  db.prepare(
    "INSERT INTO accounts (id, name, account_type, idp_organization_id, created_at) VALUES ('acc_1', 'A', 'standard', 'org_1', ?)",
  ).run(AT);
  const insert = db.prepare(
    `INSERT INTO configs (id, account_id, kind, label, yaml, revision, base_config_id, valid, error_count, warning_count, issues, created_at, updated_at)
     VALUES (?, 'acc_1', 'draft', ?, 'apps: []\n', 1, NULL, 1, 0, 0, '[]', ?, ?)`,
  );
  insert.run('cfg_1', 'Winter sale', AT, AT);
  insert.run('cfg_2', 'Summer SALE', AT, AT);
  for (let n = 0; n < NEWER; n++) {
    const at = new Date(Date.parse(AT) + (n + 1) * 1000).toISOString();
    insert.run(`cfg_newer_${n}`, `Newer ${n}`, at, at);
  }
  return db;
}

/** Every label holding a text, read in pages of one. */
async function labelsIn(store: SqliteStore, text: string): Promise<string[]> {
  const found: string[] = [];
  let after: PageKey | undefined;
  do {
    const { configs } = await store.listConfigs(
      'acc_1',
      { labelContains: text },
      { limit: 1, after },
    );
    found.push(...configs.items.map((config) => config.label));
    after = configs.next;
  } while (after !== undefined);
  return found;
}

describe('the label search migration', () => {
  it('indexes the configs already there, and the ones written after', async () => {
    expect(LABEL_MIGRATION).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'provisioning-label-migration-'));
    dataDir = dir;
    fileBefore(dir, LABEL_MIGRATION).close();

    const db = openDatabase(dir);
    const store = new SqliteStore(db);
    try {
      // Pages of one: the first, past the newer configs, comes from the index.
      const labels = async (text: string) => (await labelsIn(store, text)).sort();
      expect(await labels('sale')).toEqual(['Summer SALE', 'Winter sale']);
      expect(await labels('winter')).toEqual(['Winter sale']);

      db.prepare(
        `INSERT INTO configs (id, account_id, kind, label, yaml, revision, base_config_id, valid, error_count, warning_count, issues, created_at, updated_at)
         VALUES ('cfg_3', 'acc_1', 'draft', 'Winter again', '', 1, NULL, 1, 0, 0, '[]', ?, ?)`,
      ).run(AT, AT);
      db.prepare("UPDATE configs SET label = 'Autumn sale' WHERE id = 'cfg_1'").run();
      expect(await labels('winter')).toEqual(['Winter again']);
      expect(await labels('sale')).toEqual(['Autumn sale', 'Summer SALE']);
      db.prepare("DELETE FROM configs WHERE id = 'cfg_2'").run();
      expect(await labels('sale')).toEqual(['Autumn sale']);
      // Three characters or more are looked up in the index (a row missing there is not
      // found), fewer by reading the labels.
      db.prepare("DELETE FROM configs_label_search WHERE config_id = 'cfg_3'").run();
      expect(await labels('winter')).toEqual([]);
      expect(await labels('wi')).toEqual(['Winter again']);
    } finally {
      await store.close();
    }
  });

  it('moves each indexed label under its config rowid, so that matches come newest first', async () => {
    expect(ROWID_MIGRATION).toBeGreaterThan(LABEL_MIGRATION);
    const dir = mkdtempSync(join(tmpdir(), 'provisioning-label-rowid-'));
    dataDir = dir;
    const before = fileBefore(dir, ROWID_MIGRATION);
    // A label changed, then a config made: the index's own rowids no longer follow the
    // configs' (the earlier index numbered its rows itself).
    before.prepare("UPDATE configs SET label = 'Winter sale!' WHERE id = 'cfg_1'").run();
    const laterAt = new Date(Date.parse(AT) - 60_000).toISOString();
    before
      .prepare(
        `INSERT INTO configs (id, account_id, kind, label, yaml, revision, base_config_id, valid, error_count, warning_count, issues, created_at, updated_at)
         VALUES ('cfg_late', 'acc_1', 'draft', 'Late sale', '', 1, NULL, 1, 0, 0, '[]', ?, ?)`,
      )
      .run(laterAt, laterAt);
    const indexRowid = before
      .prepare("SELECT rowid FROM configs_label_search WHERE config_id = 'cfg_late'")
      .pluck()
      .get();
    const configRowid = before
      .prepare("SELECT rowid FROM configs WHERE id = 'cfg_late'")
      .pluck()
      .get();
    expect(indexRowid).not.toBe(configRowid);
    before.close();

    const db = openDatabase(dir);
    const store = new SqliteStore(db);
    try {
      const mismatched = db
        .prepare(
          'SELECT count(*) FROM configs c LEFT JOIN configs_label_search s ON s.rowid = c.rowid WHERE s.config_id IS NOT c.id',
        )
        .pluck()
        .get();
      expect(mismatched).toBe(0);
      // Newest stored first, though its clock read earlier than the others': every page of
      // one goes on below the last config's rowid, and each label comes once.
      expect(await labelsIn(store, 'sale')).toEqual(['Late sale', 'Summer SALE', 'Winter sale!']);
      expect(await labelsIn(store, 'Newer 1')).toEqual([
        'Newer 19',
        'Newer 18',
        'Newer 17',
        'Newer 16',
        'Newer 15',
        'Newer 14',
        'Newer 13',
        'Newer 12',
        'Newer 11',
        'Newer 10',
        'Newer 1',
      ]);
      // The search reads the index in rowid order and stops at the page: nothing is sorted.
      const plan = (statement: string) =>
        db
          .prepare(`EXPLAIN QUERY PLAN ${statement}`)
          .all('acc_1', null, null, null, null, null, 'sale', '%sale%', AT, 'cfg_1', 2)
          .map((row) => (row as { detail: string }).detail);
      const firstPlan = db
        .prepare(`EXPLAIN QUERY PLAN ${LIST_CONFIGS_BY_TRIGRAMS.first.sqlite}`)
        .all('acc_1', null, null, null, null, null, 'sale', '%sale%', 2)
        .map((row) => (row as { detail: string }).detail);
      for (const steps of [firstPlan, plan(LIST_CONFIGS_BY_TRIGRAMS.after.sqlite)]) {
        expect(steps[0]).toMatch(/^SCAN configs_label_search VIRTUAL TABLE/);
        expect(steps.join('\n')).toContain('SEARCH configs USING INTEGER PRIMARY KEY');
        expect(steps.join('\n')).not.toContain('TEMP B-TREE');
      }
    } finally {
      await store.close();
    }
  });
});
