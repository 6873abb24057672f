/** `POST /webhooks/{id}/deliveries/{delivery_id}/retry`: a failed delivery is sent again. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '../../../../contract/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { webhooksKeys } from './get-webhooks';
import { webhookEndpoints } from '../../../../contract/webhook-endpoints';

export function retryWebhookDelivery(
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  return apiRequest(webhookEndpoints.retryWebhookDelivery, {
    params: { id: webhookId, delivery_id: deliveryId },
  });
}

export function useRetryWebhookDelivery(webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => retryWebhookDelivery(webhookId, deliveryId),
    // A refusal (409: not failed any more) also means the list is out of date.
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(webhookId) }),
  });
}
