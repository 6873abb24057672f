/** Webhook endpoints and their deliveries as the API shows them, and the test event's. */
import { WEBHOOK_TEST_EVENT, type Webhook, type WebhookDelivery } from '../../contract/webhooks';
import { newOutboxMessage } from '../store/outbox/outbox-records';
import type { WebhookDeliveryRecord, WebhookRecord } from '../store/records';

/** `webhook.test`'s delivery: never one of the events an endpoint subscribes to. */
export function testDelivery(webhook: WebhookRecord, at: string): WebhookDeliveryRecord {
  return newOutboxMessage(webhook, WEBHOOK_TEST_EVENT, at, { webhook: { id: webhook.id } });
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
