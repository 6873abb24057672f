/**
 * `GET /webhooks/{id}/deliveries`: an endpoint's deliveries, newest first, page by page. Read
 * again every few seconds while one of them is pending (the sender is working on it).
 */
import type { WebhookDelivery } from '../../../../contract/webhooks';
import { useListPages } from '../../../lib/list-pages';
import { webhooksKeys } from './get-webhooks';
import { webhookEndpoints } from '../../../../contract/webhook-endpoints';

export const PENDING_REFRESH_MS = 2_000;

/** How soon to read again: while a delivery is pending, PENDING_REFRESH_MS; else never. */
export function refreshInterval(
  deliveries: readonly WebhookDelivery[] | undefined,
): number | false {
  return deliveries?.some((delivery) => delivery.status === 'pending') ? PENDING_REFRESH_MS : false;
}

export function useWebhookDeliveries(webhookId: string) {
  return useListPages(webhookEndpoints.listWebhookDeliveries, {
    key: webhooksKeys.deliveries(webhookId),
    params: { id: webhookId },
    refreshEvery: refreshInterval,
  });
}
