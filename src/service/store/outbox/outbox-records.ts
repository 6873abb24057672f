/**
 * The outbox messages one event makes: one per live endpoint of the account subscribed to
 * it, each with the exact body (`{type, timestamp, data}`) the sender will post.
 */
import type { WebhookEvent, WebhookPayload } from '../../../contract/webhooks';
import { newId } from '../../ids';
import type { EventData, WebhookDeliveryRecord, WebhookRecord } from '../records';

/** Why a pending message of a deleted endpoint is failed, not sent. */
export const ENDPOINT_DELETED_ERROR = 'endpoint deleted';

/** A new pending message of `type` to `webhook`, due at once. */
export function newOutboxMessage(
  webhook: Pick<WebhookRecord, 'id' | 'account_id'>,
  type: WebhookPayload['type'],
  at: string,
  data: Readonly<Record<string, unknown>>,
): WebhookDeliveryRecord {
  const payload: WebhookPayload = { type, timestamp: at, data };
  return {
    id: newId('msg_', Date.parse(at)),
    webhook_id: webhook.id,
    account_id: webhook.account_id,
    event: type,
    payload: JSON.stringify(payload),
    status: 'pending',
    attempts: 0,
    created_at: at,
    next_attempt_at: at,
    last_attempt_at: null,
    response_status: null,
    error: null,
  };
}

/** The messages of one event: one per endpoint (of those given) subscribed to it. */
export function outboxMessagesOf(
  webhooks: readonly WebhookRecord[],
  type: WebhookEvent,
  at: string,
  data: EventData,
): WebhookDeliveryRecord[] {
  const subscribed = webhooks.filter(
    (webhook) => webhook.deleted_at === null && webhook.events.includes(type),
  );
  if (subscribed.length === 0) return [];
  const built = data();
  return subscribed.map((webhook) => newOutboxMessage(webhook, type, at, built));
}
