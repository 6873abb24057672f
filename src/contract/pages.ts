/**
 * Pages of a list (docs/api.md, Pages): every list endpoint takes `limit` and `cursor` and
 * answers a bare JSON array; the next page's URL is in the `Link` header (`rel="next"`),
 * absent on the last page. Cursors are opaque to clients.
 */
import { described, z } from './zod';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;
/** A cursor longer than this is not one the service made. */
export const MAX_CURSOR_LENGTH = 512;

/** The query fields every list endpoint takes. */
export const pageQueryShape = {
  limit: described(
    z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_PAGE_LIMIT))),
    `Items on this page: 1–${MAX_PAGE_LIMIT}, default ${DEFAULT_PAGE_LIMIT}`,
  ),
  cursor: described(
    z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_CURSOR_LENGTH))),
    'Where this page starts: copied from the Link header of the page before; opaque',
  ),
};

/** A list endpoint's query: its own filters and the page fields. */
export function pagedQuerySchema<S extends Record<string, z.ZodMiniType>>(shape: S) {
  return z.object({ ...shape, ...pageQueryShape });
}
