/**
 * The webhook outbox: one row per event and endpoint, written in the transaction of the
 * change it announces, then claimed by a sender (a lease), attempted, and marked delivered,
 * pending again or failed. An endpoint gets its events in order: only its earliest pending
 * message (its head) may be claimed.
 */
import type { Page, PageRequest } from '../pages';
import { keysetQuery, readPage, seqKeyOf } from '../sql/keyset';
import { addAudit } from '../audit/audit-log';
import type { AuditRecord, DeliveryStatus, WebhookDeliveryRecord } from '../records';
import {
  all,
  dialects,
  get,
  insertInto,
  outboxQueued,
  pick,
  run,
  sql,
  valuesOf,
  type Op,
  type Row,
} from '../sql/sql';
import { lockAccount } from '../accounts/accounts';
import { ENDPOINT_DELETED_ERROR } from './outbox-records';
import type { AttemptResult, DueOutboxMessage } from './webhook-outbox';

const MESSAGE_COLUMNS = [
  'id',
  'webhook_id',
  'account_id',
  'event',
  'payload',
  'status',
  'attempts',
  'created_at',
  'next_attempt_at',
  'last_attempt_at',
  'response_status',
  'error',
];
const SELECT_MESSAGE = `SELECT ${MESSAGE_COLUMNS.join(', ')} FROM webhook_deliveries WHERE account_id = ? AND webhook_id = ?`;

/**
 * Each live endpoint joined to its head `d`: one index lookup per endpoint, however many
 * messages wait behind it.
 */
const HEADS = `webhooks w
  JOIN webhook_deliveries d ON d.seq = (
    SELECT e.seq FROM webhook_deliveries e
     WHERE e.webhook_id = w.id AND e.status = 'pending'
     ORDER BY e.seq LIMIT 1)
 WHERE w.deleted_at IS NULL`;

/**
 * The heads due at `now` and not leased. The conditions are on `d` itself, so that
 * PostgreSQL checks them again on the row's latest version when it locks it (another
 * instance may just have leased it); rows another instance is claiming are passed over.
 */
const DUE_HEADS = `SELECT d.*, w.url AS w_url, w.secret AS w_secret FROM ${HEADS}
   AND d.status = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?)
 ORDER BY d.seq LIMIT ?`;
const CLAIM_DUE = dialects({
  sqlite: DUE_HEADS,
  postgres: `${DUE_HEADS} FOR UPDATE OF d SKIP LOCKED`,
});
/** Leases the messages whose seq is in a JSON list. */
const LEASE = dialects({
  sqlite:
    'UPDATE webhook_deliveries SET lease_until = ? WHERE seq IN (SELECT value FROM json_each(?))',
  postgres:
    'UPDATE webhook_deliveries SET lease_until = ? WHERE seq IN (SELECT json_array_elements_text(?::json)::bigint)',
});
/** The earliest head, a leased one when its lease ends. */
const NEXT_DUE = sql(
  `SELECT MIN(CASE WHEN d.lease_until IS NOT NULL AND d.lease_until > d.next_attempt_at
                   THEN d.lease_until ELSE d.next_attempt_at END) AS due
     FROM ${HEADS}`,
);

const INSERT_MESSAGE = insertInto('webhook_deliveries', MESSAGE_COLUMNS);
const LIST_MESSAGES = keysetQuery(
  SELECT_MESSAGE.replace('SELECT ', 'SELECT seq, '),
  ['seq'],
  'DESC',
);
const GET_MESSAGE = sql(`${SELECT_MESSAGE} AND id = ?`);
const LIVE_ENDPOINT = sql(
  'SELECT 1 AS live FROM webhooks WHERE account_id = ? AND id = ? AND deleted_at IS NULL',
);
const RETRY = sql(
  "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, lease_until = NULL WHERE account_id = ? AND webhook_id = ? AND id = ? AND status = 'failed'",
);
const RECORD_ATTEMPT = sql(
  `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = ?, status = ?,
     next_attempt_at = ?, response_status = ?, error = ?, lease_until = NULL
   WHERE id = ? AND status = 'pending'`,
);
const FAIL_PENDING_OF = sql(
  "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_until = NULL, error = ? WHERE webhook_id = ? AND status = 'pending'",
);

/** What retrying a failed message came to. */
export type RetryOutcome =
  | { readonly kind: 'retried'; readonly delivery: WebhookDeliveryRecord }
  | { readonly kind: 'not_failed'; readonly delivery: WebhookDeliveryRecord }
  | { readonly kind: 'not_found' };

function toMessage(row: Row): WebhookDeliveryRecord {
  return { ...pick<WebhookDeliveryRecord>(row, MESSAGE_COLUMNS), attempts: Number(row.attempts) };
}

function toDueMessage(row: Row): DueOutboxMessage {
  return {
    id: row.id as string,
    webhook_id: row.webhook_id as string,
    account_id: row.account_id as string,
    url: row.w_url as string,
    secret: row.w_secret as string,
    event: row.event as string,
    payload: row.payload as string,
    attempts: Number(row.attempts),
    created_at: row.created_at as string,
  };
}

/** The status an attempt leaves a message in. */
function statusAfter(result: AttemptResult): DeliveryStatus {
  if (result.delivered) return 'delivered';
  return result.next_attempt_at === null ? 'failed' : 'pending';
}

/** Queues messages; the senders of this process wake once it commits. */
export function* insertOutboxMessages(messages: readonly WebhookDeliveryRecord[]): Op<void> {
  for (const message of messages) yield* run(INSERT_MESSAGE, ...valuesOf(message, MESSAGE_COLUMNS));
  if (messages.length > 0) yield* outboxQueued();
}

/** A message made outside a unit of work, and the audit record of whoever made it. */
export function* insertAuditedOutboxMessage(
  message: WebhookDeliveryRecord,
  audit: AuditRecord,
): Op<void> {
  yield* insertOutboxMessages([message]);
  yield* addAudit(audit);
}

/** An endpoint's messages, newest first. */
export function* listOutboxMessages(
  accountId: string,
  webhookId: string,
  page: PageRequest,
): Op<Page<WebhookDeliveryRecord>> {
  return yield* readPage(LIST_MESSAGES, [accountId, webhookId], page, seqKeyOf, toMessage);
}

/**
 * A failed message back to pending, due at `at`, same id and attempts kept. Under the
 * account's lock, as deleting the endpoint is: a message of a deleted endpoint is never
 * made pending again, since no sender would ever claim it.
 */
export function* retryOutboxMessage(
  accountId: string,
  webhookId: string,
  id: string,
  at: string,
  audit?: AuditRecord,
): Op<RetryOutcome> {
  yield* lockAccount(accountId);
  if (!(yield* get(LIVE_ENDPOINT, accountId, webhookId))) return { kind: 'not_found' };
  const retried = (yield* run(RETRY, at, accountId, webhookId, id)) > 0;
  const row = yield* get(GET_MESSAGE, accountId, webhookId, id);
  if (!row) return { kind: 'not_found' };
  if (!retried) return { kind: 'not_failed', delivery: toMessage(row) };
  if (audit) yield* addAudit(audit);
  yield* outboxQueued();
  return { kind: 'retried', delivery: toMessage(row) };
}

/** The pending messages of a deleted endpoint are failed, not sent. */
export function failPendingOf(webhookId: string): Op<number> {
  return run(FAIL_PENDING_OF, ENDPOINT_DELETED_ERROR, webhookId);
}

/** Selecting and leasing are one step for every process and instance (the transaction's). */
export function* claimDueOutbox(
  now: string,
  limit: number,
  leaseMs: number,
): Op<DueOutboxMessage[]> {
  const heads = yield* all(CLAIM_DUE, now, now, limit);
  if (heads.length === 0) return [];
  const until = new Date(Date.parse(now) + leaseMs).toISOString();
  yield* run(LEASE, until, JSON.stringify(heads.map((head) => head.seq)));
  return heads.map(toDueMessage);
}

/** Records an attempt of a claimed message and releases its lease. */
export function* recordOutboxAttempt(id: string, result: AttemptResult): Op<void> {
  const { at, next_attempt_at, response_status, error } = result;
  yield* run(RECORD_ATTEMPT, at, statusAfter(result), next_attempt_at, response_status, error, id);
}

export function* nextOutboxDue(): Op<string | undefined> {
  return ((yield* get(NEXT_DUE))?.due as string | null | undefined) ?? undefined;
}
