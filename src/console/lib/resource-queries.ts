/**
 * What the queries of every kind of resource share: one shape of query keys, a read of an
 * endpoint the server may not offer, and a read of one page of a list. (Kept apart from
 * api-client.ts, which every page loads first: only the pages that read resources load this.)
 */
import type { NamedEndpoint, ResponseBodyOf } from '../../contract/endpoints';
import { cursorOfPageUrl, nextPageUrlOf } from '../../contract/page-links';
import { apiRequest, callApi, isNotOffered, type RequestOptions } from './api-client';

/**
 * Query keys of one kind of resource, from general to specific: invalidating `all`
 * refreshes every list and detail of that kind. Each feature adds its own narrower keys.
 */
export function queryKeysOf<const Name extends string>(name: Name) {
  const all = [name] as const;
  return {
    all,
    list: () => [...all, 'list'] as const,
    /** A list read page by page (useListPages adds its filters): under `list()`. */
    pages: () => [...all, 'list', 'pages'] as const,
    detail: (id: string) => [...all, 'detail', id] as const,
  };
}

/**
 * apiRequest for an endpoint the server may not offer: its answer, or null for a 404 that
 * means the server does not offer it (isNotOffered). Any other failure is thrown.
 */
export async function optionalRequest<E extends NamedEndpoint>(
  endpoint: E,
  options: RequestOptions<E> = {},
): Promise<ResponseBodyOf<E> | null> {
  try {
    return await apiRequest(endpoint, options);
  } catch (error) {
    if (isNotOffered(error)) return null;
    throw error;
  }
}

/** One page of a list: its items, and the cursor of the next page (none: this is the last). */
export interface ListPage<T> {
  readonly items: T;
  readonly nextCursor: string | undefined;
}

/** Calls a paged endpoint: the page's items, and the next page's cursor from its `Link`. */
export async function pageRequest<E extends NamedEndpoint>(
  endpoint: E,
  options: RequestOptions<E> = {},
): Promise<ListPage<ResponseBodyOf<E>>> {
  const { data, headers } = await callApi(endpoint, options);
  const next = nextPageUrlOf(headers.get('Link'));
  return { items: data, nextCursor: next === undefined ? undefined : cursorOfPageUrl(next) };
}
