/**
 * `GET /webhooks/{id}/deliveries`: an endpoint's recent deliveries, newest first. Read again
 * every few seconds while one of them is pending (the sender is working on it), not otherwise.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookDelivery } from '../../../../contract/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { webhooksKeys } from './get-webhooks';

export const PENDING_REFRESH_MS = 2_000;

export function getWebhookDeliveries(
  webhookId: string,
  signal?: AbortSignal,
): Promise<WebhookDelivery[]> {
  return apiRequest('listWebhookDeliveries', { params: { id: webhookId }, signal });
}

/** How soon to read again: while a delivery is pending, PENDING_REFRESH_MS; else never. */
export function refreshInterval(
  deliveries: readonly WebhookDelivery[] | undefined,
): number | false {
  return deliveries?.some((delivery) => delivery.status === 'pending') ? PENDING_REFRESH_MS : false;
}

export function webhookDeliveriesQueryOptions(webhookId: string) {
  return queryOptions({
    queryKey: webhooksKeys.deliveries(webhookId),
    queryFn: ({ signal }) => getWebhookDeliveries(webhookId, signal),
    refetchInterval: (query) => refreshInterval(query.state.data),
  });
}

export function useWebhookDeliveries(webhookId: string) {
  return useQuery(webhookDeliveriesQueryOptions(webhookId));
}
