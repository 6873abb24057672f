/**
 * A list read a page at a time (store/pages.ts): the same SELECT twice, for the first page
 * and for the pages after a key, ordered by the key's columns (the last one unique).
 */
import { mapPage, pageOf, type Page, type PageKey, type PageRequest } from '../pages';
import { all, dialects, type Op, type Row, type Sql } from './sql';

export interface KeysetQuery {
  readonly first: Sql;
  readonly after: Sql;
}

/**
 * `select` ends with its WHERE clause (no ORDER BY, no LIMIT), the same text in both dialects
 * or one for each; the key's columns come in order of importance, all sorted one way. Row
 * values compare like tuples in both dialects.
 */
export function keysetQuery(
  select: string | { readonly sqlite: string; readonly postgres: string },
  keyColumns: readonly string[],
  direction: 'ASC' | 'DESC',
): KeysetQuery {
  const order = keyColumns.map((column) => `${column} ${direction}`).join(', ');
  const comparison = direction === 'DESC' ? '<' : '>';
  const tuple = (values: readonly string[]) =>
    values.length === 1 ? values[0] : `(${values.join(', ')})`;
  const texts = typeof select === 'string' ? { sqlite: select, postgres: select } : select;
  const first = (text: string) => `${text} ORDER BY ${order} LIMIT ?`;
  const after = (text: string) =>
    `${text} AND ${tuple(keyColumns)} ${comparison} ${tuple(keyColumns.map(() => '?'))} ORDER BY ${order} LIMIT ?`;
  return {
    first: dialects({ sqlite: first(texts.sqlite), postgres: first(texts.postgres) }),
    after: dialects({ sqlite: after(texts.sqlite), postgres: after(texts.postgres) }),
  };
}

/**
 * One page: `params` fill the WHERE clause's placeholders; `keyOf` reads a row's key (an
 * integer column as a number: SQLite orders every number before every text).
 */
export function* readPage<T>(
  query: KeysetQuery,
  params: readonly unknown[],
  page: PageRequest,
  keyOf: (row: Row) => PageKey,
  toItem: (row: Row) => T,
): Op<Page<T>> {
  const rows =
    page.after === undefined
      ? yield* all(query.first, ...params, page.limit + 1)
      : yield* all(query.after, ...params, ...page.after, page.limit + 1);
  return mapPage(pageOf(rows, page.limit, keyOf), toItem);
}

/** The key of lists ordered by creation: `(created_at, id)`. */
export const CREATED_KEY = ['created_at', 'id'] as const;
export const createdKeyOf = (row: Row): PageKey => [row.created_at as string, row.id as string];

/** The key of lists ordered by `seq`: a number (PostgreSQL sends a BIGINT as text). */
export const seqKeyOf = (row: Row): PageKey => [Number(row.seq)];
