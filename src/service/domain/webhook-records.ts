/**
 * Webhook endpoints and their deliveries as the store keeps them, and the deliveries one
 * event makes: one per live endpoint of the account subscribed to it, each with the exact
 * body (`{type, timestamp, data}`) the sender will post.
 */
import {
  WEBHOOK_TEST_EVENT,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookPayload,
} from '../../contract/webhooks';
import { newId } from '../ids';
import type { EventData, WebhookDeliveryRecord, WebhookRecord } from '../store/records';

/** Why a pending delivery of a deleted endpoint is failed, not sent. */
export const ENDPOINT_DELETED_ERROR = 'endpoint deleted';

/** A new pending delivery of `type` to `webhook`, due at once. */
export function newDelivery(
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

/** The deliveries of one event: one per endpoint (of those given) subscribed to it. */
export function deliveriesOf(
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
  return subscribed.map((webhook) => newDelivery(webhook, type, at, built));
}

/** `webhook.test`'s delivery: never one of the events an endpoint subscribes to. */
export function testDelivery(webhook: WebhookRecord, at: string): WebhookDeliveryRecord {
  return newDelivery(webhook, WEBHOOK_TEST_EVENT, at, { webhook: { id: webhook.id } });
}

export function publicWebhook(webhook: WebhookRecord): Webhook {
  return {
    id: webhook.id,
    url: webhook.url,
    events: [...webhook.events],
    description: webhook.description,
    created_at: webhook.created_at,
  };
}

export function publicDelivery(delivery: WebhookDeliveryRecord): WebhookDelivery {
  return {
    id: delivery.id,
    event: delivery.event,
    status: delivery.status,
    attempts: delivery.attempts,
    created_at: delivery.created_at,
    last_attempt_at: delivery.last_attempt_at,
    next_attempt_at: delivery.status === 'pending' ? delivery.next_attempt_at : null,
    response_status: delivery.response_status,
    error: delivery.error,
  };
}
