/** `GET /webhooks`: the account's webhook endpoints, page by page. A 404: not offered. */
import { useListPages } from '../../../lib/list-pages';
import { queryKeysOf } from '../../../lib/resource-queries';
import { webhookEndpoints } from '../../../../contract/webhook-endpoints';

export const webhooksKeys = {
  ...queryKeysOf('webhooks'),
  deliveries: (webhookId: string) => [...webhooksKeys.all, 'deliveries', webhookId] as const,
};

/** The endpoints read so far (null when the server does not offer webhooks). */
export function useWebhooks({ enabled }: { enabled: boolean }) {
  return useListPages(webhookEndpoints.listWebhooks, {
    key: webhooksKeys.pages(),
    optional: true,
    enabled,
  });
}
