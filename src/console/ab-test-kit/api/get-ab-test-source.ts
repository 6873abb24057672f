/**
 * The configs as the A/B test pages read them: the live config and the drafts, each with
 * its apps and tests (api/get-config-contents), in the same cache entries as every page.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import type { ConfigSummary } from '../../../contract/configs';
import { configQueryOptions, LIVE } from '../../api/get-config';
import {
  configContentsQueryOptions,
  withContentsOf,
  type ConfigWithContents,
} from '../../api/get-config-contents';
import { configsQueryOptions } from '../../api/get-configs';
import { ApiProblem } from '../../lib/api-client';

/** A config as the A/B test pages read it: its record, and its apps and tests. */
export type AbTestSource = ConfigWithContents;

/** At most this many drafts are read for the list; the newest come first. */
export const MAX_DRAFTS_LISTED = 20;

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
  const list = useQuery(configsQueryOptions());
  const drafts = (list.data ?? []).filter((config) => config.kind === 'draft');
  const listed = drafts.slice(0, MAX_DRAFTS_LISTED);
  const ids = [LIVE, ...listed.map((draft) => draft.id)];
  const records = useQueries({ queries: ids.map((id) => configQueryOptions(id)) });
  const contents = useQueries({
    queries: records.map((record) => configContentsQueryOptions(record.data)),
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
    draftsLeftOut: Math.max(0, drafts.length - MAX_DRAFTS_LISTED),
    listsDrafts: list.data !== null,
    refetch: () => {
      void list.refetch();
      for (const query of sources) query.refetch();
    },
  };
}
