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
/** Newer configs than a page of one reads in order before it asks the trigram index. */
const NEWER = 25;

function fileBeforeLabelSearch(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, DATABASE_FILE));
  MIGRATIONS.slice(0, LABEL_MIGRATION).forEach((migration) => db.exec(migration.sqlite));
  db.pragma(`user_version = ${LABEL_MIGRATION}`);
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
  db.close();
}

describe('the label search migration', () => {
  it('indexes the configs already there, and the ones written after', async () => {
    expect(LABEL_MIGRATION).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'provisioning-label-migration-'));
    dataDir = dir;
    fileBeforeLabelSearch(dir);

    const db = openDatabase(dir);
    const store = new SqliteStore(db);
    try {
      // Pages of one: the first, past the newer configs, comes from the index.
      const labels = async (text: string) => {
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
        return found.sort();
      };
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
});
