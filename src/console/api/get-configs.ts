/**
 * `GET /configs`, as the A/B test pages read it: the newest drafts. (The configs page reads
 * it page by page: features/configs/api/list-configs.ts.)
 */
import { queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ConfigList } from '../../contract/configs';
import { optionalRequest, type ListPage } from '../lib/resource-queries';
import { configsKeys } from './config-keys';
import { configEndpoints } from '../../contract/config-endpoints';

/** At most this many drafts are read for the A/B test pages; the newest come first. */
export const MAX_DRAFTS_LISTED = 20;

/**
 * The newest drafts, and one more to know whether any is left out; null when the server does
 * not offer the list. Asked of the server by kind, so published versions newer than every
 * draft never crowd them out of the page.
 */
export function newestDraftsQueryOptions() {
  return queryOptions({
    queryKey: configsKeys.newestDrafts(),
    queryFn: ({ signal }): Promise<ConfigList | null> =>
      optionalRequest(configEndpoints.listConfigs, {
        query: { kind: 'draft', limit: MAX_DRAFTS_LISTED + 1 },
        signal,
      }),
  });
}

/**
 * Takes a config out of every list of configs in the cache (the newest drafts, and the pages
 * of the configs page): a draft that a step has just published is gone, and a page that
 * mounts before the lists are read again must not ask for it.
 */
export function dropFromConfigLists(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData(configsKeys.newestDrafts(), (list: ConfigList | null | undefined) =>
    list?.filter((config) => config.id !== id),
  );
  queryClient.setQueriesData<InfiniteData<ListPage<ConfigList | null>>>(
    { queryKey: configsKeys.pages() },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          items: page.items && page.items.filter((config) => config.id !== id),
        })),
      },
  );
}
