/** `GET /client-keys`: the account's client keys. A 404 means this server does not offer them. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientKey } from '../../../../contract/delivery';
import { optionalRequest, queryKeysOf } from '../../../lib/resource-queries';

export const clientKeysKeys = queryKeysOf('client-keys');

/** The keys, or null when the server does not offer client keys. */
export function getClientKeys(signal?: AbortSignal): Promise<ClientKey[] | null> {
  return optionalRequest('listClientKeys', { signal });
}

export function clientKeysQueryOptions() {
  return queryOptions({
    queryKey: clientKeysKeys.list(),
    queryFn: ({ signal }) => getClientKeys(signal),
  });
}

export function useClientKeys({ enabled }: { enabled: boolean }) {
  return useQuery({ ...clientKeysQueryOptions(), enabled });
}
