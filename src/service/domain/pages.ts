/**
 * Cursors: a page's key (store/pages.ts) as an opaque token naming its list, and back; a
 * token that is not one of the list's is refused as a bad `cursor` field.
 */
import { DEFAULT_PAGE_LIMIT, MAX_CURSOR_LENGTH } from '../../contract/pages';
import { type Page, type PageKey, type PageRequest } from '../store/pages';
import { Refused } from './refusals';

/**
 * The page a query asks for. `list` names the list and goes into its cursors, so a cursor
 * of one list is refused by another; `keyLength` is the number of values of its key.
 */
function pageRequestOf(
  list: string,
  keyLength: number,
  query: { readonly limit?: number | undefined; readonly cursor?: string | undefined },
): PageRequest {
  return {
    limit: query.limit ?? DEFAULT_PAGE_LIMIT,
    after: query.cursor === undefined ? undefined : decodeCursor(list, keyLength, query.cursor),
  };
}

/** One list's pages: its name in cursors and its key's length, in one place. */
export interface PagedList {
  request(query: {
    readonly limit?: number | undefined;
    readonly cursor?: string | undefined;
  }): PageRequest;
  /** The cursor of the page after `page`; undefined on the last page. */
  cursorAfter(page: Page<unknown>): string | undefined;
}

export function pagedList(name: string, keyLength: number): PagedList {
  return {
    request: (query) => pageRequestOf(name, keyLength, query),
    cursorAfter: (page) => (page.next === undefined ? undefined : encodeCursor(name, page.next)),
  };
}

function encodeCursor(list: string, key: PageKey): string {
  return Buffer.from(JSON.stringify([list, ...key])).toString('base64url');
}

function decodeCursor(list: string, keyLength: number, cursor: string): PageKey {
  const refused = () =>
    new Refused('invalid_field', `The cursor is not one of this list's: ${cursor.slice(0, 40)}`, {
      field: {
        path: '/cursor',
        message: 'not a cursor of this list; copy it from the Link header',
      },
    });
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw refused();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  if (!Array.isArray(decoded) || decoded.length !== keyLength + 1 || decoded[0] !== list) {
    throw refused();
  }
  const key = decoded.slice(1) as unknown[];
  const wellFormed = key.every(
    (value) =>
      (typeof value === 'string' && value.length <= 200) ||
      (typeof value === 'number' && Number.isSafeInteger(value)),
  );
  if (!wellFormed) throw refused();
  return key as PageKey;
}
