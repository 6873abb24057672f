/** `GET /configs`: the account's configs, newest first. A 404: this server does not offer it. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConfigList } from '../../contract/configs';
import { optionalRequest } from '../lib/resource-queries';
import { configsKeys } from './config-keys';

/** The configs, or null when the server does not offer the list. */
export function getConfigs(signal?: AbortSignal): Promise<ConfigList | null> {
  return optionalRequest('listConfigs', { signal });
}

export function configsQueryOptions() {
  return queryOptions({
    queryKey: configsKeys.list(),
    queryFn: ({ signal }) => getConfigs(signal),
  });
}

export function useConfigs() {
  return useQuery(configsQueryOptions());
}
