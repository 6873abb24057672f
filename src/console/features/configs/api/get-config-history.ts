/** `GET /configs/{id}/history`: the changes in the line of a config, newest first. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HistoryList } from '../../../../contract/configs';
import { apiRequest } from '../../../lib/api-client';
import { configsKeys } from '../../../api/config-keys';

export function getConfigHistory(id: string, signal?: AbortSignal): Promise<HistoryList> {
  return apiRequest('getConfigHistory', { params: { id }, signal });
}

export function configHistoryQueryOptions(id: string) {
  return queryOptions({
    queryKey: configsKeys.history(id),
    queryFn: ({ signal }) => getConfigHistory(id, signal),
  });
}

export function useConfigHistory(id: string | null) {
  return useQuery({ ...configHistoryQueryOptions(id ?? ''), enabled: id !== null });
}
