/** `POST /webhooks`: a new endpoint; its signing secret is in this answer only. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createWebhookRequestSchema,
  type CreatedWebhook,
  type CreateWebhookRequest,
} from '../../../../contract/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { webhooksKeys } from './get-webhooks';
import { webhookEndpoints } from '../../../../contract/webhook-endpoints';

export function createWebhook(request: CreateWebhookRequest): Promise<CreatedWebhook> {
  // The contract's own schema checks the body before it leaves.
  return apiRequest(webhookEndpoints.createWebhook, {
    body: createWebhookRequestSchema.parse(request),
  });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    // The answer holds the secret: the form resets the mutation once it has it, and with no
    // observer left and gcTime 0 the cache drops it at once (a mounted form would keep it).
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKeys.list() }),
  });
}
