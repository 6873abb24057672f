/** `GET /api-keys`: the account's keys, page by page. A 404 means this server does not offer it. */
import { useListPages } from '../../../lib/list-pages';
import { queryKeysOf } from '../../../lib/resource-queries';
import { apiKeyEndpoints } from '../../../../contract/api-key-endpoints';

export const apiKeysKeys = queryKeysOf('api-keys');

/** The keys read so far (null when the server does not offer key management). */
export function useApiKeys({ enabled }: { enabled: boolean }) {
  return useListPages(apiKeyEndpoints.listApiKeys, {
    key: apiKeysKeys.pages(),
    optional: true,
    enabled,
  });
}
