/**
 * A config with its contents: the record, through the same cache entry as every other
 * reader of it (a save anywhere refreshes them all), and its apps and tests, read from the
 * YAML in the operations worker so that a large config never stalls the page. Also the
 * live config and the drafts together, as the A/B test pages list them.
 */
import {
  queryOptions,
  skipToken,
  useQueries,
  useQuery,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { ConfigContents } from '../../configs';
import type { ConfigRecord, ConfigSummary } from '../../contract/configs';
import { ApiProblem } from '../lib/api-client';
import { operationsClient } from '../editor/operations-client';
import { configsKeys } from './config-keys';
import { configQueryOptions, LIVE } from './get-config';
import { MAX_DRAFTS_LISTED, newestDraftsQueryOptions } from './get-configs';

export interface ConfigWithContents {
  readonly config: ConfigRecord;
  /** null: the config's text does not parse (a broken draft); it has no tests to show. */
  readonly contents: ConfigContents | null;
}

/** `pendingId`: what names the entry while the record is loading (each its own, in a list). */
export function configContentsQueryOptions(
  config: ConfigRecord | undefined,
  pendingId = config?.id ?? '',
) {
  // The id and revision name the text: keying by the YAML itself would hash megabytes.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return queryOptions({
    queryKey: configsKeys.contents(config?.id ?? pendingId, config?.revision ?? 0),
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

function isGone(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 404;
}

export interface ConfigsWithContents {
  /** The list or the live config is still loading (a draft that comes later does not count). */
  readonly isPending: boolean;
  /** Something is still loading or refreshing. */
  readonly isFetching: boolean;
  readonly error: unknown;
  /** The live config first, then the drafts, newest first. */
  readonly sources: readonly ConfigWithContents[];
  /** The drafts that are read (newest first), loaded or not yet. */
  readonly drafts: readonly ConfigSummary[];
  /** Drafts whose contents are still loading. */
  readonly draftsLoading: number;
  /** Whether there are drafts older than the MAX_DRAFTS_LISTED read. */
  readonly draftsLeftOut: boolean;
  /** False when the server does not offer the list of configs: only the live config. */
  readonly listsDrafts: boolean;
  refetch(): void;
}

/** The live config and the drafts, each with its apps and tests. */
export function useConfigsWithContents(): ConfigsWithContents {
  const list = useQuery(newestDraftsQueryOptions());
  const drafts = list.data ?? [];
  const listed = drafts.slice(0, MAX_DRAFTS_LISTED);
  const ids = [LIVE, ...listed.map((draft) => draft.id)];
  const records = useQueries({ queries: ids.map((id) => configQueryOptions(id)) });
  const contents = useQueries({
    queries: records.map((record, index) => configContentsQueryOptions(record.data, ids[index])),
  });
  const sources = records.flatMap((record, index) => {
    const content = contents[index];
    return content ? [withContentsOf(record, content)] : [];
  });
  return {
    // sources[0] is the live config's (ids[0] is LIVE).
    isPending: list.isPending || sources[0]?.isPending !== false,
    isFetching: list.isFetching || sources.some((query) => query.isFetching),
    // A draft that is gone by now (published or discarded meanwhile) is simply not listed.
    error:
      list.error ??
      sources.find((query, index) => query.isError && !(index > 0 && isGone(query.error)))?.error ??
      null,
    sources: sources.flatMap((query) => (query.data ? [query.data] : [])),
    drafts: listed,
    draftsLoading: sources.filter((query) => query.isPending).length,
    draftsLeftOut: drafts.length > MAX_DRAFTS_LISTED,
    listsDrafts: list.data !== null,
    refetch: () => {
      void list.refetch();
      for (const query of sources) query.refetch();
    },
  };
}
