/**
 * An account with one webhook endpoint, for the tests of deleting it while messages are made
 * or retried (store/webhook-deletion*.test.ts): the store, the endpoint, an audit record
 * maker and the count of its pending messages. Test-only.
 */
import type { AuditRecord, WebhookRecord } from '../store/records';
import { createAccount } from './made-at';
import { openTestStore, type TestStore } from './test-store';

export const T0 = '2026-11-22T10:00:00.000Z';

export interface EndpointToDelete {
  readonly database: TestStore;
  readonly accountId: string;
  readonly webhook: WebhookRecord;
  audit(action: string): AuditRecord;
  /** The endpoint's messages still pending. */
  pendingOfEndpoint(): Promise<number>;
}

export async function openEndpointToDelete(): Promise<EndpointToDelete> {
  const database = await openTestStore();
  const account = await createAccount(database.store, {
    name: 'Deletions',
    ownerEmail: 'owner@example.com',
    now: new Date(T0),
  });
  const accountId = account.account_id;
  const webhook: WebhookRecord = {
    id: 'wh_deleted',
    account_id: accountId,
    url: 'https://hooks.example.com/a',
    events: ['config.published'],
    description: '',
    secret: 'whsec_test',
    created_at: T0,
    deleted_at: null,
  };
  const audit = (action: string): AuditRecord => ({
    account_id: accountId,
    at: T0,
    action,
    actor: null,
    target_id: webhook.id,
    detail: {},
  });
  await database.store.insertWebhook(webhook, audit('webhook.create'), 20);
  return {
    database,
    accountId,
    webhook,
    audit,
    async pendingOfEndpoint() {
      const rows = await database.rows<{ n: number | string }>(
        "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending'",
        webhook.id,
      );
      return Number(rows[0]?.n);
    },
  };
}
