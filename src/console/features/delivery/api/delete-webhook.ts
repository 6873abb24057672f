/** `DELETE /webhooks/{id}`: the endpoint gets nothing more, pending deliveries included. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { webhooksKeys } from './get-webhooks';

export async function deleteWebhook(id: string): Promise<void> {
  await apiRequest('deleteWebhook', { params: { id } });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: webhooksKeys.deliveries(id) });
      return queryClient.invalidateQueries({ queryKey: webhooksKeys.list() });
    },
  });
}
