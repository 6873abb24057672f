/** `GET /configs/{id}` and `GET /configs/live`: one config with its YAML and report. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConfigRecord } from '../../contract/configs';
import { apiRequest } from '../lib/api-client';
import { configsKeys } from './config-keys';
import { configEndpoints } from '../../contract/config-endpoints';

/** The route's word for the live config: `/configs/live`. */
export const LIVE = 'live';

export function getConfig(id: string, signal?: AbortSignal): Promise<ConfigRecord> {
  return id === LIVE
    ? apiRequest(configEndpoints.getLiveConfig, { signal })
    : apiRequest(configEndpoints.getConfig, { params: { id }, signal });
}

export function configQueryOptions(id: string) {
  return queryOptions({
    queryKey: configsKeys.detail(id),
    queryFn: ({ signal }) => getConfig(id, signal),
  });
}

export function useConfig(id: string | null) {
  return useQuery({ ...configQueryOptions(id ?? ''), enabled: id !== null });
}
