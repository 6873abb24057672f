/**
 * `GET /config/schema`: the config's JSON Schema for the editor. When the server does not
 * offer it (or cannot send it), the editor uses the schema bundled with the console.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { configJsonSchema } from '../../../../configs/config-schema';
import { apiRequest } from '../../../lib/api-client';
import { configsKeys } from '../../../api/config-keys';
import { configEndpoints } from '../../../../contract/config-endpoints';

export async function getConfigSchema(signal?: AbortSignal): Promise<object> {
  try {
    return await apiRequest(configEndpoints.getConfigSchema, { signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // The schema only helps while typing; the server validates every save anyway.
    return configJsonSchema;
  }
}

export function configSchemaQueryOptions() {
  return queryOptions({
    queryKey: configsKeys.schema(),
    queryFn: ({ signal }) => getConfigSchema(signal),
    staleTime: Infinity,
  });
}

export function useConfigSchema() {
  return useQuery(configSchemaQueryOptions());
}
