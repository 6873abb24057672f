/** `GET /configs` page by page, filtered and searched by the server. */
import type { ConfigListQuery } from '../../../../contract/configs';
import { useListPages } from '../../../lib/list-pages';
import { configsKeys } from '../../../api/config-keys';
import { configEndpoints } from '../../../../contract/config-endpoints';

export type ConfigFilters = Pick<ConfigListQuery, 'kind' | 'review' | 'q'>;

/** The configs that pass `filters`, newest first, read so far (null: the list is not offered). */
export function useConfigPages(filters: ConfigFilters) {
  return useListPages(configEndpoints.listConfigs, {
    key: configsKeys.pages(),
    query: filters,
    optional: true,
    keepPrevious: true,
  });
}
