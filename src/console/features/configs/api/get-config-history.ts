/** `GET /configs/{id}/history`: the changes in the line of a config, newest first. */
import { queryOptions } from '@tanstack/react-query';
import type { HistoryList } from '../../../../contract/configs';
import { apiRequest } from '../../../lib/api-client';
import { useListPages } from '../../../lib/list-pages';
import { configsKeys } from '../../../api/config-keys';
import { configEndpoints } from '../../../../contract/config-endpoints';

/** The first page: the newest changes (what a merge's authors are read from). */
export function getConfigHistory(id: string, signal?: AbortSignal): Promise<HistoryList> {
  return apiRequest(configEndpoints.getConfigHistory, { params: { id }, signal });
}

export function configHistoryQueryOptions(id: string) {
  return queryOptions({
    queryKey: configsKeys.history(id),
    queryFn: ({ signal }) => getConfigHistory(id, signal),
  });
}

/** The history page's changes read so far, page by page. */
export function useConfigHistory(id: string | null) {
  return useListPages(configEndpoints.getConfigHistory, {
    key: configsKeys.historyPages(id ?? ''),
    params: { id: id ?? '' },
    enabled: id !== null,
  });
}
