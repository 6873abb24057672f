/** `GET /webhooks`: the account's webhook endpoints. A 404 means this server does not offer them. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Webhook } from '../../../../contract/webhooks';
import { apiRequest, isNotOffered } from '../../../lib/api-client';

export const webhooksKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhooksKeys.all, 'list'] as const,
  deliveries: (webhookId: string) => [...webhooksKeys.all, 'deliveries', webhookId] as const,
};

/** The endpoints, or null when the server does not offer webhooks. */
export async function getWebhooks(signal?: AbortSignal): Promise<Webhook[] | null> {
  try {
    return await apiRequest('listWebhooks', { signal });
  } catch (error) {
    if (isNotOffered(error)) return null;
    throw error;
  }
}

export function webhooksQueryOptions() {
  return queryOptions({
    queryKey: webhooksKeys.list(),
    queryFn: ({ signal }) => getWebhooks(signal),
  });
}

export function useWebhooks({ enabled }: { enabled: boolean }) {
  return useQuery({ ...webhooksQueryOptions(), enabled });
}
