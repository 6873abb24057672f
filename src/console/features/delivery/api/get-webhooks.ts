/** `GET /webhooks`: the account's webhook endpoints. A 404 means this server does not offer them. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Webhook } from '../../../../contract/webhooks';
import { optionalRequest, queryKeysOf } from '../../../lib/resource-queries';

export const webhooksKeys = {
  ...queryKeysOf('webhooks'),
  deliveries: (webhookId: string) => [...webhooksKeys.all, 'deliveries', webhookId] as const,
};

/** The endpoints, or null when the server does not offer webhooks. */
export function getWebhooks(signal?: AbortSignal): Promise<Webhook[] | null> {
  return optionalRequest('listWebhooks', { signal });
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
