/**
 * A SQLite file made before webhooks upgrades in place: it has no endpoints, can make one,
 * and a publish on it writes the endpoint's delivery in the outbox, which a sender claims.
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
const WEBHOOKS_MIGRATION = MIGRATIONS.findIndex((migration) =>
  migration.name.startsWith('webhooks'),
);

function fileBeforeWebhooks(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, DATABASE_FILE));
  MIGRATIONS.slice(0, WEBHOOKS_MIGRATION).forEach((migration) => db.exec(migration.sqlite));
  db.pragma(`user_version = ${WEBHOOKS_MIGRATION}`);
  db.prepare(
    "INSERT INTO accounts (id, name, account_type, idp_organization_id, created_at) VALUES ('acc_1', 'A', 'standard', 'org_1', ?)",
  ).run(AT);
  db.close();
}

describe('the webhooks migration', () => {
  it('upgrades a file made before it', async () => {
    expect(WEBHOOKS_MIGRATION).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'provisioning-webhook-migration-'));
    dataDir = dir;
    fileBeforeWebhooks(dir);

    const store = new SqliteStore(openDatabase(dir));
    try {
      expect((await store.listWebhooks('acc_1', { limit: 50, after: undefined })).items).toEqual(
        [],
      );
      expect(await store.nextOutboxDue()).toBeUndefined();
      const webhook = {
        id: 'wh_1',
        account_id: 'acc_1',
        url: 'https://hooks.example.com/a',
        events: ['config.published' as const],
        description: '',
        secret: 'whsec_c2VjcmV0',
        created_at: AT,
        deleted_at: null,
      };
      const audit = {
        account_id: 'acc_1',
        at: AT,
        action: 'webhook.create',
        actor: null,
        target_id: 'wh_1',
        detail: {},
      };
      await store.insertWebhook(webhook, audit);
      expect((await store.listWebhooks('acc_1', { limit: 50, after: undefined })).items).toEqual([
        webhook,
      ]);
      await store.changeConfigs('acc_1', {}, (tx) => {
        tx.addWebhookEvents('config.published', AT, () => ({ config: { id: 'cfg_1' } }));
      });
      const [claimed] = await store.claimDueOutbox(AT, 10, 1_000);
      expect(claimed).toMatchObject({
        webhook_id: 'wh_1',
        url: webhook.url,
        secret: webhook.secret,
        payload: JSON.stringify({
          type: 'config.published',
          timestamp: AT,
          data: { config: { id: 'cfg_1' } },
        }),
      });
    } finally {
      await store.close();
    }
  });
});
