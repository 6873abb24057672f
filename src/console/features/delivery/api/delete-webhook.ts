/** `DELETE /webhooks/{id}`: the endpoint gets nothing more, pending deliveries included. */
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Webhook } from '../../../../contract/webhooks';
import type { ListPage } from '../../../lib/resource-queries';
import { apiRequest } from '../../../lib/api-client';
import { webhooksKeys } from './get-webhooks';
import { webhookEndpoints } from '../../../../contract/webhook-endpoints';

export async function deleteWebhook(id: string): Promise<void> {
  await apiRequest(webhookEndpoints.deleteWebhook, { params: { id } });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: async (_, id) => {
      // Its deliveries are gone with it: stop reading them before the list is read again,
      // or the still-open disclosure asks for them once more (a 404).
      await queryClient.cancelQueries({ queryKey: webhooksKeys.deliveries(id) });
      queryClient.setQueriesData<InfiniteData<ListPage<Webhook[] | null>>>(
        { queryKey: webhooksKeys.pages() },
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items && page.items.filter((webhook) => webhook.id !== id),
            })),
          },
      );
      queryClient.removeQueries({ queryKey: webhooksKeys.deliveries(id) });
      return queryClient.invalidateQueries({ queryKey: webhooksKeys.list() });
    },
  });
}
