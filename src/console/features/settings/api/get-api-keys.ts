/** `GET /api-keys`: the account's keys. A 404 means this server does not offer it. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeyList } from '../../../../contract/api-keys';
import { apiRequest, isNotOffered } from '../../../lib/api-client';

export const apiKeysKeys = {
  all: ['api-keys'] as const,
};

/** The keys, or null when the server does not offer key management. */
export async function getApiKeys(signal?: AbortSignal): Promise<ApiKeyList | null> {
  try {
    return await apiRequest('listApiKeys', { signal });
  } catch (error) {
    if (isNotOffered(error)) return null;
    throw error;
  }
}

export function apiKeysQueryOptions() {
  return queryOptions({
    queryKey: [...apiKeysKeys.all, 'list'] as const,
    queryFn: ({ signal }) => getApiKeys(signal),
  });
}

export function useApiKeys({ enabled }: { enabled: boolean }) {
  return useQuery({ ...apiKeysQueryOptions(), enabled });
}
