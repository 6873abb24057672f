/**
 * A config as the A/B test pages read it: the record (shared with the configs pages' cache)
 * and its apps and tests, read from the YAML in the operations worker so that a large
 * config never stalls the page.
 */
import { queryOptions, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConfigContents } from '../../../../configs';
import type { ConfigRecord, ConfigSummary } from '../../../../contract/configs';
import { ApiProblem } from '../../../lib/api-client';
import { configQueryOptions, LIVE } from '../../configs/api/get-config';
import { configsQueryOptions } from '../../configs/api/get-configs';
import { operationsClient } from '../../../editor/operations-client';
import { abTestsKeys } from './ab-tests-keys';

export interface AbTestSource {
  readonly config: ConfigRecord;
  /** null: the config's text does not parse (a broken draft); it has no tests to show. */
  readonly contents: ConfigContents | null;
}

/** At most this many drafts are read for the list; the newest come first. */
export const MAX_DRAFTS_LISTED = 20;

type QueryClientLike = ReturnType<typeof useQueryClient>;

export function abTestSourceQueryOptions(queryClient: QueryClientLike, configId: string) {
  return queryOptions({
    queryKey: abTestsKeys.source(configId),
    queryFn: async (): Promise<AbTestSource> => {
      const config = await queryClient.fetchQuery(configQueryOptions(configId));
      const contents = await operationsClient().run({ kind: 'contents', text: config.yaml });
      return { config, contents };
    },
  });
}

export function useAbTestSource(configId: string) {
  const queryClient = useQueryClient();
  return useQuery(abTestSourceQueryOptions(queryClient, configId));
}

function isGone(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 404;
}

export interface AbTestSources {
  /** The list or the live config is still loading (a draft that comes later does not count). */
  readonly isPending: boolean;
  /** Something is still loading or refreshing. */
  readonly isFetching: boolean;
  readonly error: unknown;
  /** The live config first, then the drafts, newest first. */
  readonly sources: readonly AbTestSource[];
  /** The drafts that are read (newest first), loaded or not yet. */
  readonly drafts: readonly ConfigSummary[];
  /** Drafts whose contents are still loading. */
  readonly draftsLoading: number;
  /** Drafts beyond MAX_DRAFTS_LISTED that were not read. */
  readonly draftsLeftOut: number;
  /** False when the server does not offer the list of configs: only the live config. */
  readonly listsDrafts: boolean;
  refetch(): void;
}

/** The live config and the drafts, each with its apps and tests. */
export function useAbTestSources(): AbTestSources {
  const queryClient = useQueryClient();
  const list = useQuery(configsQueryOptions());
  const drafts = (list.data ?? []).filter((config) => config.kind === 'draft');
  const listed = drafts.slice(0, MAX_DRAFTS_LISTED);
  const ids = [LIVE, ...listed.map((draft) => draft.id)];
  const sources = useQueries({
    queries: ids.map((id) => abTestSourceQueryOptions(queryClient, id)),
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
    draftsLeftOut: Math.max(0, drafts.length - MAX_DRAFTS_LISTED),
    listsDrafts: list.data !== null,
    refetch: () => {
      void list.refetch();
      for (const query of sources) void query.refetch();
    },
  };
}
