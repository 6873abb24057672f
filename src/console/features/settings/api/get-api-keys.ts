/** `GET /api-keys`: the account's keys. A 404 means this server does not offer it. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeyList } from '../../../../contract/api-keys';
import { optionalRequest, queryKeysOf } from '../../../lib/resource-queries';

export const apiKeysKeys = queryKeysOf('api-keys');

/** The keys, or null when the server does not offer key management. */
export function getApiKeys(signal?: AbortSignal): Promise<ApiKeyList | null> {
  return optionalRequest('listApiKeys', { signal });
}

export function apiKeysQueryOptions() {
  return queryOptions({
    queryKey: apiKeysKeys.list(),
    queryFn: ({ signal }) => getApiKeys(signal),
  });
}

export function useApiKeys({ enabled }: { enabled: boolean }) {
  return useQuery({ ...apiKeysQueryOptions(), enabled });
}
