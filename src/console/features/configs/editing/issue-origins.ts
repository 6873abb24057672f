/**
 * Which operation of a save produced each issue of the report it got back: an issue comes
 * from an operation when its path lies inside a path that operation touched.
 */
import { actionKeyOf, itemsOf, type Operation } from '../../../../contract/operations';

export interface IssueOrigin {
  /** Index of the operation in the request. */
  readonly operation: number;
  /** "update_app checkout", "set /settings/theme". */
  readonly label: string;
}

/** What a save posted, and the paths the server says it touched. */
export interface SavedEdit {
  readonly operations: readonly Operation[];
  readonly appliedPaths: readonly string[];
}

interface Touched {
  readonly origin: IssueOrigin;
  readonly prefix: string;
}

const LIST_ITEM = /^\/(apps|ab_tests)\/(\d+)(?:\/|$)/;

function inside(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`) || prefix === '';
}

/** The list item an applied path lies in ("/apps/3"), with its list; null: none. */
function listItemOf(path: string): { list: string; item: string } | null {
  const [, list, index] = LIST_ITEM.exec(path) ?? [];
  return list && index ? { list, item: `/${list}/${index}` } : null;
}

/**
 * The places each operation touched. set/unset name their own pointers. App and A/B test
 * items name an id, not an index: the server records the paths it touched in the order it
 * applied the items, so the k-th run of paths inside one list item belongs to the k-th such
 * item (promote_ab_test's copies into the winner's app come just before its test's run). A
 * deleted item's index now holds another item, so it names nothing. When runs and items do
 * not line up, the rest names nothing rather than something wrong.
 */
function touchedBy(operations: readonly Operation[], appliedPaths: readonly string[]): Touched[] {
  const touched: Touched[] = [];
  const pointers: string[] = [];
  const items: { origin: IssueOrigin; key: string; list: string; deletes: boolean }[] = [];
  operations.forEach((operation, index) => {
    const action = actionKeyOf(operation);
    for (const item of itemsOf(operation)) {
      const path = item.path;
      const id = item.id;
      if ((action === 'set' || action === 'unset') && typeof path === 'string') {
        // An unset required field is reported at its own path, so unset names issues too.
        pointers.push(path);
        touched.push({ origin: { operation: index, label: `${action} ${path}` }, prefix: path });
      } else if (typeof id === 'string') {
        const list = action.endsWith('_ab_test') ? 'ab_tests' : 'apps';
        const origin = { operation: index, label: `${action} ${id}` };
        items.push({ origin, key: `${list}:${id}`, list, deletes: action.startsWith('delete_') });
      }
    }
  });

  const runs: { list: string; item: string }[] = [];
  for (const path of appliedPaths) {
    if (pointers.some((pointer) => inside(path, pointer))) continue;
    const at = listItemOf(path);
    if (!at) continue;
    if (runs.at(-1)?.item !== at.item) runs.push(at);
  }

  let next = 0;
  let previousKey = '';
  let previousItem = '';
  for (const item of items) {
    // Consecutive items on the same app or test share one run.
    if (item.key === previousKey) {
      if (!item.deletes) touched.push({ origin: item.origin, prefix: previousItem });
      continue;
    }
    const claimed: string[] = [];
    let own = runs[next];
    while (own && own.list !== item.list) {
      if (!item.origin.label.startsWith('promote_ab_test')) return touched;
      claimed.push(own.item);
      next += 1;
      own = runs[next];
    }
    if (!own) return touched;
    next += 1;
    claimed.push(own.item);
    previousKey = item.key;
    previousItem = own.item;
    if (item.deletes) continue;
    for (const prefix of claimed) touched.push({ origin: item.origin, prefix });
  }
  return touched;
}

/**
 * Per issue path, the operation it comes from (null: none touched it). The deepest touched
 * place wins: a `set` inside an app names the issue rather than the app's update.
 */
export function issueOriginsOf(
  operations: readonly Operation[],
  appliedPaths: readonly string[],
  issuePaths: readonly string[],
): (IssueOrigin | null)[] {
  const touched = touchedBy(operations, appliedPaths);
  return issuePaths.map((path) => {
    let best: Touched | null = null;
    for (const place of touched) {
      if (!inside(path, place.prefix)) continue;
      if (best === null || place.prefix.length > best.prefix.length) best = place;
    }
    return best?.origin ?? null;
  });
}

/** Per operation, the indexes of the issues it caused. */
export function issuesByOperation(
  origins: readonly (IssueOrigin | null)[],
  operationCount: number,
): number[][] {
  const byOperation = Array.from({ length: operationCount }, (): number[] => []);
  origins.forEach((origin, issue) => {
    if (origin) byOperation[origin.operation]?.push(issue);
  });
  return byOperation;
}
