/**
 * What the queries of every kind of resource share: one shape of query keys, and a read of
 * an endpoint the server may not offer. (Kept apart from api-client.ts, which every page
 * loads first: only the pages that read resources load this.)
 */
import type { Contract, EndpointName, ResponseBodyOf } from '../../contract/endpoints';
import { apiRequest, isNotOffered, type RequestOptions } from './api-client';

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
export async function optionalRequest<N extends EndpointName>(
  name: N,
  options: RequestOptions<N> = {},
): Promise<ResponseBodyOf<Contract[N]> | null> {
  try {
    return await apiRequest(name, options);
  } catch (error) {
    if (isNotOffered(error)) return null;
    throw error;
  }
}
