/** `GET /client-keys`: the account's client keys. A 404 means this server does not offer them. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientKey } from '../../../../contract/delivery';
import { apiRequest, isNotOffered } from '../../../lib/api-client';

export const clientKeysKeys = {
  all: ['client-keys'] as const,
};

/** The keys, or null when the server does not offer client keys. */
export async function getClientKeys(signal?: AbortSignal): Promise<ClientKey[] | null> {
  try {
    return await apiRequest('listClientKeys', { signal });
  } catch (error) {
    if (isNotOffered(error)) return null;
    throw error;
  }
}

export function clientKeysQueryOptions() {
  return queryOptions({
    queryKey: [...clientKeysKeys.all, 'list'] as const,
    queryFn: ({ signal }) => getClientKeys(signal),
  });
}

export function useClientKeys({ enabled }: { enabled: boolean }) {
  return useQuery({ ...clientKeysQueryOptions(), enabled });
}
