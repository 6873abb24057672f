/**
 * Keyset pages: a list is read in a fixed order (newest first, say) and a page starts after
 * the last item of the page before, named by its sort key. Items inserted meanwhile sort
 * before the first page, so no item is seen twice and none that existed is skipped.
 */

/** The values of a sort key, in the order's columns. */
export type PageKey = readonly (string | number)[];

export interface PageRequest {
  readonly limit: number;
  /** Start after this key; undefined: the first page. */
  readonly after: PageKey | undefined;
}

export interface Page<T> {
  readonly items: T[];
  /** The key of the last item, when more may follow. */
  readonly next: PageKey | undefined;
}

/** Rows read with `LIMIT limit + 1`: the page, and its next key when the extra row came. */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => PageKey): Page<T> {
  if (rows.length <= limit) return { items: rows, next: undefined };
  const items = rows.slice(0, limit);
  return { items, next: keyOf(items[items.length - 1] as T) };
}

/** The same page with its items mapped (records to what the API shows). */
export function mapPage<T, U>(page: Page<T>, map: (item: T) => U): Page<U> {
  return { items: page.items.map(map), next: page.next };
}

/** Every item, page after page: for the operator's command line, not for requests. */
export async function allPages<T>(
  read: (page: PageRequest) => Promise<Page<T>>,
  limit = 200,
): Promise<T[]> {
  const items: T[] = [];
  let after: PageKey | undefined;
  do {
    const page = await read({ limit, after });
    items.push(...page.items);
    after = page.next;
  } while (after !== undefined);
  return items;
}
