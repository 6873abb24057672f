/**
 * Webhook endpoints. A deleted endpoint keeps its row (its outbox messages point at it); its
 * pending messages are failed in the same transaction, so none is sent after the delete.
 */
import type { WebhookEvent } from '../../../contract/webhooks';
import { addAudit } from '../audit/audit-log';
import { failPendingOf } from '../outbox/outbox';
import type { Page, PageRequest } from '../pages';
import type { AuditRecord, WebhookRecord } from '../records';
import { CREATED_KEY, createdKeyOf, keysetQuery, readPage } from '../sql/keyset';
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
const LIST_WEBHOOKS = sql(`${LIVE_WEBHOOKS} ORDER BY created_at DESC, id DESC`);
const PAGE_WEBHOOKS = keysetQuery(LIVE_WEBHOOKS, CREATED_KEY, 'DESC');
const GET_WEBHOOK = sql(`${LIVE_WEBHOOKS} AND id = ?`);
const DELETE_WEBHOOK = sql(
  'UPDATE webhooks SET deleted_at = ? WHERE account_id = ? AND id = ? AND deleted_at IS NULL',
);

function toWebhook(row: Row): WebhookRecord {
  return {
    ...pick<WebhookRecord>(row, WEBHOOK_COLUMNS),
    events: JSON.parse(row.events as string) as WebhookEvent[],
  };
}

export function* insertWebhook(webhook: WebhookRecord, audit: AuditRecord): Op<void> {
  const events = JSON.stringify(webhook.events);
  yield* run(INSERT_WEBHOOK, ...valuesOf({ ...webhook, events }, WEBHOOK_COLUMNS));
  yield* addAudit(audit);
}

/** The account's endpoints, deleted ones left out, newest first. */
export function* listWebhooks(accountId: string): Op<WebhookRecord[]> {
  return (yield* all(LIST_WEBHOOKS, accountId)).map(toWebhook);
}

/** A page of the account's endpoints, deleted ones left out, newest first. */
export function* pageWebhooks(accountId: string, page: PageRequest): Op<Page<WebhookRecord>> {
  return yield* readPage(PAGE_WEBHOOKS, [accountId], page, createdKeyOf, toWebhook);
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
  if ((yield* run(DELETE_WEBHOOK, at, accountId, id)) === 0) return false;
  yield* failPendingOf(id);
  yield* addAudit(audit);
  return true;
}
