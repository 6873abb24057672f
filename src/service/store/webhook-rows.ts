/** Webhook and delivery rows as both stores read and write them. */
import type { WebhookEvent } from '../../contract/webhooks';

import type { DueDelivery } from '../webhooks/outbox';

import type { Row } from './rows';
import type { DeliveryStatus, WebhookDeliveryRecord, WebhookRecord } from './records';

export const WEBHOOK_COLUMNS =
  'id, account_id, url, events, description, secret, created_at, deleted_at';

export const DELIVERY_COLUMNS =
  'id, webhook_id, account_id, event, payload, status, attempts, created_at, next_attempt_at, last_attempt_at, response_status, error';

export function webhookValues(webhook: WebhookRecord): unknown[] {
  return [
    webhook.id,
    webhook.account_id,
    webhook.url,
    JSON.stringify(webhook.events),
    webhook.description,
    webhook.secret,
    webhook.created_at,
    webhook.deleted_at,
  ];
}

export function deliveryValues(delivery: WebhookDeliveryRecord): unknown[] {
  return [
    delivery.id,
    delivery.webhook_id,
    delivery.account_id,
    delivery.event,
    delivery.payload,
    delivery.status,
    delivery.attempts,
    delivery.created_at,
    delivery.next_attempt_at,
    delivery.last_attempt_at,
    delivery.response_status,
    delivery.error,
  ];
}

export function toWebhook(row: Row): WebhookRecord {
  return {
    id: row.id as string,
    account_id: row.account_id as string,
    url: row.url as string,
    events: JSON.parse(row.events as string) as WebhookEvent[],
    description: row.description as string,
    secret: row.secret as string,
    created_at: row.created_at as string,
    deleted_at: (row.deleted_at as string | null) ?? null,
  };
}

export function toDelivery(row: Row): WebhookDeliveryRecord {
  return {
    id: row.id as string,
    webhook_id: row.webhook_id as string,
    account_id: row.account_id as string,
    event: row.event as string,
    payload: row.payload as string,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    created_at: row.created_at as string,
    next_attempt_at: (row.next_attempt_at as string | null) ?? null,
    last_attempt_at: (row.last_attempt_at as string | null) ?? null,
    response_status: row.response_status === null ? null : Number(row.response_status),
    error: (row.error as string | null) ?? null,
  };
}

/** A claimed delivery with its endpoint's URL and secret (`w_url`, `w_secret`). */
export function toDueDelivery(row: Row): DueDelivery {
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

/** When a lease taken at `now` for `leaseMs` ends. */
export function leaseEnd(now: string, leaseMs: number): string {
  return new Date(Date.parse(now) + leaseMs).toISOString();
}

/** The status an attempt leaves a delivery in. */
export function statusAfter(result: {
  delivered: boolean;
  next_attempt_at: string | null;
}): DeliveryStatus {
  if (result.delivered) return 'delivered';
  return result.next_attempt_at === null ? 'failed' : 'pending';
}

/**
 * Each live endpoint joined to its earliest pending delivery `d` (an endpoint gets its
 * events in order, so only that one may be sent): one index lookup per endpoint, however
 * many deliveries wait behind it.
 */
export const HEADS_FROM = `webhooks w
  JOIN webhook_deliveries d ON d.seq = (
    SELECT e.seq FROM webhook_deliveries e
     WHERE e.webhook_id = w.id AND e.status = 'pending'
     ORDER BY e.seq LIMIT 1)`;

/**
 * The heads a sender may take at `now` (a placeholder in either dialect): due and not
 * leased. The conditions are on `d` itself, so that PostgreSQL checks them again on the
 * row's latest version when it locks it (another instance may just have leased it).
 */
export function dueHeadsWhere(now: string): string {
  return `w.deleted_at IS NULL
      AND d.status = 'pending'
      AND d.next_attempt_at <= ${now}
      AND (d.lease_until IS NULL OR d.lease_until <= ${now})`;
}

/** When the next delivery is due: the earliest head, a leased one when its lease ends. */
export const NEXT_DUE_QUERY = `
  SELECT MIN(CASE WHEN d.lease_until IS NOT NULL AND d.lease_until > d.next_attempt_at
                  THEN d.lease_until ELSE d.next_attempt_at END) AS due
    FROM ${HEADS_FROM}
   WHERE w.deleted_at IS NULL`;
