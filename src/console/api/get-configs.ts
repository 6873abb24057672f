/** `GET /configs`: the account's configs, newest first. A 404: this server does not offer it. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConfigList } from '../../contract/configs';
import { apiRequest, isNotOffered } from '../lib/api-client';
import { configsKeys } from './config-keys';

/** The configs, or null when the server does not offer the list. */
export async function getConfigs(signal?: AbortSignal): Promise<ConfigList | null> {
  try {
    return await apiRequest('listConfigs', { signal });
  } catch (error) {
    if (isNotOffered(error)) return null;
    throw error;
  }
}

export function configsQueryOptions() {
  return queryOptions({
    queryKey: configsKeys.lists(),
    queryFn: ({ signal }) => getConfigs(signal),
  });
}

export function useConfigs() {
  return useQuery(configsQueryOptions());
}
