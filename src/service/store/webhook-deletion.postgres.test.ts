/**
 * PostgreSQL: a publish whose unit of work read the endpoints before a delete committed ends
 * with the endpoint's messages failed, never one left pending (no sender claims a deleted
 * endpoint's message). The retry race, on both stores: webhook-deletion.test.ts.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../testing/made-at';
import { openTestStore, type TestStore } from '../testing/test-store';
import { unitOfWork } from './configs/unit-of-work';
import type { WebhookRecord } from './records';
import type { Op, Row } from './sql/sql';

const T0 = '2026-11-22T10:00:00.000Z';

let database: TestStore;
let accountId: string;
let webhook: WebhookRecord;

beforeEach(async () => {
  database = await openTestStore();
  const account = await createAccount(database.store, {
    name: 'Deletions',
    ownerEmail: 'owner@example.com',
    now: new Date(T0),
  });
  accountId = account.account_id;
  webhook = {
    id: 'wh_deleted',
    account_id: accountId,
    url: 'https://hooks.example.com/a',
    events: ['config.published'],
    description: '',
    secret: 'whsec_test',
    created_at: T0,
    deleted_at: null,
  };
  await database.store.insertWebhook(webhook, audit('webhook.create'), 20);
});
afterEach(async () => {
  await database.dispose();
});

function audit(action: string) {
  return { account_id: accountId, at: T0, action, actor: null, target_id: webhook.id, detail: {} };
}

async function pendingOfEndpoint(): Promise<number> {
  const rows = await database.rows<{ n: number | string }>(
    "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending'",
    webhook.id,
  );
  return Number(rows[0]?.n);
}

describe('deleting a webhook endpoint while a publish commits', () => {
  it('fails the message a publish queues for an endpoint deleted while it commits', async () => {
    const client = new pg.Client({ connectionString: database.postgresUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      const op = unitOfWork(accountId, {}, (tx) => {
        tx.addWebhookEvents('config.published', T0, () => ({ config_id: 'cfg_x' }));
      });
      let deletion: Promise<boolean> | undefined;
      await drive(client, op, async (sqlText) => {
        if (deletion || !sqlText.startsWith('INSERT INTO webhook_deliveries')) return;
        // The unit has read the endpoint as live: the delete comes now, before the insert.
        deletion = database.store.deleteWebhook(accountId, webhook.id, T0, audit('delete'));
        await Promise.race([deletion, waitingOn(client)]);
      });
      await client.query('COMMIT');
      expect(await deletion).toBe(true);
    } finally {
      await client.end();
    }
    expect(await pendingOfEndpoint()).toBe(0);
  });
});

/** Runs an operation on one connection, calling `before` ahead of each statement. */
async function drive<T>(
  client: pg.Client,
  op: Op<T>,
  before: (sqlText: string) => Promise<void>,
): Promise<T> {
  let step = op.next();
  while (!step.done) {
    const s = step.value;
    let answer: unknown;
    if (s.kind === 'all' || s.kind === 'get' || s.kind === 'run') {
      await before(s.sql.postgres);
      const { rows, rowCount } = await client.query<Row>(s.sql.postgres, s.params);
      answer = s.kind === 'all' ? rows : s.kind === 'get' ? rows[0] : (rowCount ?? 0);
    } else if (s.kind === 'call') {
      answer = await s.work((nested) => drive(client, nested, async () => undefined));
    }
    step = op.next(answer);
  }
  return step.value;
}

/** Resolves once another backend waits for a lock `client`'s transaction holds. */
async function waitingOn(client: pg.Client): Promise<void> {
  for (;;) {
    const { rows } = await client.query(
      `SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted
          AND transactionid::text = pg_current_xact_id()::text`,
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
