/**
 * A list read page by page (docs/console.md, "Lists, pages and search"): TanStack's infinite
 * query over a paged endpoint, each next page's cursor taken from the `Link` header. The
 * items of the pages read so far come as one array; `more` reads the next page.
 */
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { NamedEndpoint, QueryOf, ResponseBodyOf } from '../../contract/endpoints';
import { isNotOffered, type RequestOptions } from './api-client';
import { pageRequest, type ListPage } from './resource-queries';

type ItemOf<E extends NamedEndpoint> =
  ResponseBodyOf<E> extends readonly (infer Item)[] ? Item : never;

/** The end of a list: whether there is more, and reading it. */
export interface MoreItems {
  readonly hasMore: boolean;
  readonly loading: boolean;
  /** Why the last next page failed (null: it did not). */
  readonly error: unknown;
  /** Reads the next page, unless it is being read or there is none. */
  load(): void;
}

export interface ListPages<Item> {
  /** The items read so far; null: the server does not offer the list; undefined: loading. */
  readonly data: readonly Item[] | null | undefined;
  readonly isPending: boolean;
  /** The first page (or a refresh) failed; a failed next page is `more.error`. */
  readonly isError: boolean;
  readonly error: unknown;
  readonly isFetching: boolean;
  refetch(): unknown;
  readonly more: MoreItems;
}

export interface ListPagesOptions<E extends NamedEndpoint> {
  /** The list's key: `keys.pages()` of its resource; the filters are appended to it. */
  readonly key: readonly unknown[];
  readonly params?: RequestOptions<E>['params'];
  /** Filters and `limit`; the cursor is the hook's. */
  readonly query?: QueryOf<E>;
  readonly enabled?: boolean;
  /** A 404 means the server does not offer the list: `data` is null. */
  readonly optional?: boolean;
  /** While other filters' first page loads, show the last filters' items (a search as you type). */
  readonly keepPrevious?: boolean;
  /** How soon to read the pages again, from the items read so far (false: not on a timer). */
  readonly refreshEvery?: (items: readonly ItemOf<E>[]) => number | false;
}

type Page<E extends NamedEndpoint> = ListPage<ResponseBodyOf<E> | null>;

function itemsOf<Item>(pages: readonly ListPage<readonly Item[] | null>[]): readonly Item[] | null {
  if (pages[0]?.items === null) return null;
  return pages.flatMap((page) => page.items ?? []);
}

export function listPagesOptions<E extends NamedEndpoint>(
  endpoint: E,
  options: ListPagesOptions<E>,
) {
  const { key, optional = false, refreshEvery } = options;
  const params = (options.params ?? {}) as object;
  const query = (options.query ?? {}) as object;
  // The key names the resource, so the endpoint and `optional` go with it; filters are added.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return infiniteQueryOptions({
    queryKey: [...key, { ...params, ...query }],
    queryFn: async ({ pageParam, signal }): Promise<Page<E>> => {
      const pageQuery = { ...query, ...(pageParam === undefined ? {} : { cursor: pageParam }) };
      try {
        return await pageRequest(endpoint, {
          params,
          query: pageQuery,
          signal,
        } as RequestOptions<E>);
      } catch (error) {
        if (optional && isNotOffered(error)) return { items: null, nextCursor: undefined };
        throw error;
      }
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: refreshEvery
      ? (read) => {
          const pages = read.state.data?.pages ?? [];
          const items = itemsOf(pages as ListPage<readonly ItemOf<E>[] | null>[]);
          return items === null ? false : refreshEvery(items);
        }
      : undefined,
  });
}

/** The pages of `endpoint`'s list read so far, as one list, with a way to read more. */
export function useListPages<E extends NamedEndpoint>(
  endpoint: E,
  options: ListPagesOptions<E>,
): ListPages<ItemOf<E>> {
  const query = useInfiniteQuery({
    ...listPagesOptions(endpoint, options),
    enabled: options.enabled ?? true,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
  });
  const { data, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  const items = useMemo(
    () =>
      data === undefined
        ? undefined
        : itemsOf(data.pages as ListPage<readonly ItemOf<E>[] | null>[]),
    [data],
  );
  const load = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return {
    data: items,
    isPending: query.isPending,
    isError: query.isError && !isFetchNextPageError,
    error: query.error,
    isFetching: query.isFetching,
    refetch: query.refetch,
    more: {
      hasMore: hasNextPage,
      loading: isFetchingNextPage,
      error: isFetchNextPageError ? query.error : null,
      load,
    },
  };
}
