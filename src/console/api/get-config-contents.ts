/**
 * A config with its contents: the record, through the same cache entry as every other
 * reader of it (a save anywhere refreshes them all), and its apps and tests, read from the
 * YAML in the operations worker so that a large config never stalls the page.
 */
import { queryOptions, skipToken, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ConfigContents } from '../../configs';
import type { ConfigRecord } from '../../contract/configs';
import { operationsClient } from '../editor/operations-client';
import { configsKeys } from './config-keys';
import { configQueryOptions } from './get-config';

export interface ConfigWithContents {
  readonly config: ConfigRecord;
  /** null: the config's text does not parse (a broken draft); it has no tests to show. */
  readonly contents: ConfigContents | null;
}

export function configContentsQueryOptions(config: ConfigRecord | undefined) {
  // The id and revision name the text: keying by the YAML itself would hash megabytes.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return queryOptions({
    queryKey: configsKeys.contents(config?.id ?? '', config?.revision ?? 0),
    queryFn: config
      ? () => operationsClient().run({ kind: 'contents', text: config.yaml })
      : skipToken,
    // The text of one revision of a config never changes.
    staleTime: Infinity,
  });
}

/** One config's record and contents, seen as one query. */
export type ConfigWithContentsQuery = (
  | { isPending: true; isError: false; error: null; data: undefined }
  | { isPending: false; isError: true; error: unknown; data: undefined }
  | { isPending: false; isError: false; error: null; data: ConfigWithContents }
) & { isFetching: boolean; refetch(): void };

export function withContentsOf(
  record: UseQueryResult<ConfigRecord>,
  contents: UseQueryResult<ConfigContents | null>,
): ConfigWithContentsQuery {
  const common = {
    isFetching: record.isFetching || contents.isFetching,
    refetch: () => void record.refetch(),
  };
  const error = record.error ?? contents.error;
  if (error !== null) return { ...common, isPending: false, isError: true, error, data: undefined };
  if (record.data === undefined || contents.data === undefined) {
    return { ...common, isPending: true, isError: false, error: null, data: undefined };
  }
  const data = { config: record.data, contents: contents.data };
  return { ...common, isPending: false, isError: false, error: null, data };
}

export function useConfigWithContents(configId: string): ConfigWithContentsQuery {
  const record = useQuery(configQueryOptions(configId));
  const contents = useQuery(configContentsQueryOptions(record.data));
  return withContentsOf(record, contents);
}
