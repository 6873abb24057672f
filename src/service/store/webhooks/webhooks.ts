/**
 * Webhook endpoints. A deleted endpoint keeps its row (its outbox messages point at it); its
 * pending messages are failed in the same transaction, so none is sent after the delete.
 * Deleting takes the account's lock, so a unit of work queueing messages for the endpoint
 * commits either before (its messages are failed here) or after (it no longer sees it).
 */
import type { WebhookEvent } from '../../../contract/webhooks';
import type { Page, PageRequest } from '../pages';
import { CREATED_KEY, createdKeyOf, keysetQuery, readPage } from '../sql/keyset';
import { belowLimit, lockAccount } from '../accounts/accounts';
import { addAudit } from '../audit/audit-log';
import { failPendingOf } from '../outbox/outbox';
import type { AuditRecord, WebhookRecord } from '../records';
import { all, get, insertInto, pick, run, sql, valuesOf, type Op, type Row } from '../sql/sql';

const WEBHOOK_COLUMNS = [
  'id',
  'account_id',
  'url',
  'events',
  'description',
  'secret',
  'created_at',
  'deleted_at',
];
const LIVE_WEBHOOKS = `SELECT ${WEBHOOK_COLUMNS.join(', ')} FROM webhooks WHERE account_id = ? AND deleted_at IS NULL`;

const INSERT_WEBHOOK = insertInto('webhooks', WEBHOOK_COLUMNS);
const ALL_WEBHOOKS = sql(`${LIVE_WEBHOOKS} ORDER BY created_at DESC, id DESC`);
const LIST_WEBHOOKS = keysetQuery(LIVE_WEBHOOKS, CREATED_KEY, 'DESC');
const GET_WEBHOOK = sql(`${LIVE_WEBHOOKS} AND id = ?`);
const COUNT_WEBHOOKS = sql(
  'SELECT COUNT(*) AS n FROM webhooks WHERE account_id = ? AND deleted_at IS NULL',
);
const DELETE_WEBHOOK = sql(
  'UPDATE webhooks SET deleted_at = ? WHERE account_id = ? AND id = ? AND deleted_at IS NULL',
);

function toWebhook(row: Row): WebhookRecord {
  return {
    ...pick<WebhookRecord>(row, WEBHOOK_COLUMNS),
    events: JSON.parse(row.events as string) as WebhookEvent[],
  };
}

export function* insertWebhook(
  webhook: WebhookRecord,
  audit: AuditRecord,
  limit: number,
): Op<boolean> {
  const accountId = webhook.account_id;
  if (!(yield* belowLimit(accountId, limit, COUNT_WEBHOOKS, accountId))) return false;
  const events = JSON.stringify(webhook.events);
  yield* run(INSERT_WEBHOOK, ...valuesOf({ ...webhook, events }, WEBHOOK_COLUMNS));
  yield* addAudit(audit);
  return true;
}

/** The account's endpoints, deleted ones left out, newest first. */
export function* listWebhooks(accountId: string, page: PageRequest): Op<Page<WebhookRecord>> {
  return yield* readPage(LIST_WEBHOOKS, [accountId], page, createdKeyOf, toWebhook);
}

/** Every endpoint of the account (a publish queues a message for each one subscribed). */
export function* allWebhooks(accountId: string): Op<WebhookRecord[]> {
  return (yield* all(ALL_WEBHOOKS, accountId)).map(toWebhook);
}

export function* getWebhook(accountId: string, id: string): Op<WebhookRecord | undefined> {
  const row = yield* get(GET_WEBHOOK, accountId, id);
  return row && toWebhook(row);
}

/** False: no such endpoint (or already deleted). */
export function* deleteWebhook(
  accountId: string,
  id: string,
  at: string,
  audit: AuditRecord,
): Op<boolean> {
  yield* lockAccount(accountId);
  if ((yield* run(DELETE_WEBHOOK, at, accountId, id)) === 0) return false;
  yield* failPendingOf(id);
  yield* addAudit(audit);
  return true;
}
