/**
 * A deleted webhook endpoint never keeps a pending message (both stores): no sender claims
 * one, so it would wait forever. A retry that passed its check before the delete, and (on
 * PostgreSQL) a publish whose unit of work read the endpoints before the delete committed,
 * must both end with the endpoint's messages failed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDelivery } from '../domain/webhook-records';
import { createAccount } from '../testing/made-at';
import { openTestStore, testStoreKind, type TestStore } from '../testing/test-store';
import type { WebhookRecord } from './records';

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

describe(`deleting a webhook endpoint (${testStoreKind()})`, () => {
  it('refuses to retry a message of an endpoint deleted after the retry was checked', async () => {
    const message = { ...testDelivery(webhook, T0), status: 'failed' as const };
    await database.store.insertOutboxMessage({ ...message, next_attempt_at: null });
    // The domain found the endpoint; the delete commits before the retry's transaction.
    expect(await database.store.deleteWebhook(accountId, webhook.id, T0, audit('delete'))).toBe(
      true,
    );
    const outcome = await database.store.retryOutboxMessage(accountId, webhook.id, message.id, T0);
    expect(outcome.kind).toBe('not_found');
    expect(await pendingOfEndpoint()).toBe(0);
  });
});
