/** `POST /webhooks/{id}/test`: queues a webhook.test delivery to the endpoint. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '../../../../contract/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { webhooksKeys } from './get-webhooks';
import { webhookEndpoints } from '../../../../contract/webhook-endpoints';

export function sendTestWebhook(webhookId: string): Promise<WebhookDelivery> {
  return apiRequest(webhookEndpoints.sendTestWebhook, { params: { id: webhookId } });
}

export function useSendTestWebhook(webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendTestWebhook(webhookId),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(webhookId) }),
  });
}
