/**
 * What edit operations touch, by meaning rather than by position: an app or A/B test by its
 * id, one of its fields, one settings key, or a pointer outside `apps` and `ab_tests`. Two
 * edits that touch overlapping keys cannot both be kept without a person choosing.
 */
import { actionKeyOf, itemsOf, type Operation } from '../../contract/operations';
import { isPlainObject } from '../data';
import { isArrayIndexToken, parsePointer, toPointer } from '../json-pointer';
import { UPDATABLE_TEST_FIELDS } from '../operations/ab-test-actions';

export type ListKey = 'apps' | 'ab_tests';
const LISTS: readonly string[] = ['apps', 'ab_tests'] satisfies ListKey[];

/**
 * A place in the config's meaning: JSON Pointer tokens where the second token under `apps`
 * or `ab_tests` is the item's id, not its index. `[]` is the whole config; `["apps"]` the
 * whole list.
 */
export type MeaningKey = readonly string[];

export interface Touch {
  readonly key: MeaningKey;
  /**
   * Whether the touch writes a value that another write of the same value leaves as it is:
   * a field set, not an item created or deleted, nor a pointer unset (those refuse twice).
   */
  readonly sameValueMerges: boolean;
}

/** Reads the config an operation applied to, only when its meaning depends on positions. */
export type DataBefore = () => unknown;

type Item = Readonly<Record<string, unknown>>;

/** The keys `operations` touch, in order; `before(i)` is the config operation `i` applied to. */
export function touchesOf(
  operations: readonly Operation[],
  before: (operationIndex: number) => unknown,
): Touch[] {
  return operations.flatMap((operation, index) =>
    touchesOfOperation(operation, () => before(index)),
  );
}

/** Whether an operation's meaning depends on the config it applies to (list positions). */
export function dependsOnPositions(operation: Operation): boolean {
  const action = actionKeyOf(operation);
  if (action === 'promote_ab_test') return true;
  if (action !== 'set' && action !== 'unset') return false;
  return itemsOf(operation).some((item) => positionalList(item.path) !== undefined);
}

/**
 * Whether an operation may change which item sits at which position of `apps` or
 * `ab_tests` (or a test's app, which positions are read with): creating, deleting or
 * replacing items, setting a list or the whole config, changing an item's `id` or a test's
 * `app`. Operations that only change items' other fields keep every position's meaning.
 */
export function mayMoveItems(operation: Operation): boolean {
  const action = actionKeyOf(operation);
  if (['create_app', 'delete_app', 'create_ab_test', 'delete_ab_test'].includes(action)) {
    return true;
  }
  if (action !== 'set' && action !== 'unset') return false;
  return itemsOf(operation).some((item) => {
    const tokens = typeof item.path === 'string' ? safeTokens(item.path) : undefined;
    if (tokens === undefined || tokens.length === 0) return true;
    const [list, , field, ...deeper] = tokens;
    if (list === undefined || !LISTS.includes(list)) return false;
    return field === undefined || (deeper.length === 0 && (field === 'id' || field === 'app'));
  });
}

/** The list a pointer names an item of by index (`/apps/3/...`), if it does. */
export function positionalList(path: unknown): ListKey | undefined {
  if (typeof path !== 'string') return undefined;
  const tokens = safeTokens(path);
  const [list, index] = tokens ?? [];
  return list !== undefined && LISTS.includes(list) && index !== undefined
    ? (list as ListKey)
    : undefined;
}

function touchesOfOperation(operation: Operation, before: DataBefore): Touch[] {
  const items = itemsOf(operation);
  const touches: Touch[] = [];
  const add = (key: MeaningKey, sameValueMerges: boolean) => touches.push({ key, sameValueMerges });
  const action = actionKeyOf(operation);
  for (const item of items) {
    const id = typeof item.id === 'string' ? item.id : undefined;
    switch (action) {
      case 'create_app':
      case 'delete_app':
        add(id === undefined ? ['apps'] : ['apps', id], false);
        break;
      case 'create_ab_test':
      case 'delete_ab_test':
        add(id === undefined ? ['ab_tests'] : ['ab_tests', id], false);
        break;
      case 'update_app':
        if (id === undefined) add(['apps'], false);
        else touches.push(...appFieldTouches(id, item));
        break;
      case 'update_ab_test':
        for (const field of UPDATABLE_TEST_FIELDS) {
          if (field in item) add(id === undefined ? ['ab_tests'] : ['ab_tests', id, field], true);
        }
        break;
      case 'start_ab_test':
        statusTouches(id, ['started_at']).forEach((key) => add(key, false));
        break;
      case 'end_ab_test':
        statusTouches(id, ['ended_at']).forEach((key) => add(key, false));
        break;
      case 'promote_ab_test':
        statusTouches(id, ['winner', 'ended_at']).forEach((key) => add(key, false));
        // The winner's settings are copied into the test's app.
        add(appOfTest(before(), id), false);
        break;
      case 'set':
        for (const key of pointerKeys(item, before, true)) add(key, true);
        break;
      case 'unset':
        for (const key of pointerKeys(item, before, false)) add(key, false);
        break;
      case 'edit_text':
        // How the text says it, not what: the edit checks the text says what the others do.
        break;
      default:
        // An action not judged here is taken to touch the whole config: it never merges.
        add([], false);
    }
  }
  return touches;
}

function appFieldTouches(id: string, item: Item): Touch[] {
  const touches: Touch[] = [];
  for (const [field, value] of Object.entries(item)) {
    if (field === 'id') continue;
    if (field === 'settings' && isPlainObject(value)) {
      for (const key of Object.keys(value)) {
        touches.push({ key: ['apps', id, 'settings', key], sameValueMerges: true });
      }
    } else {
      touches.push({ key: ['apps', id, field], sameValueMerges: true });
    }
  }
  return touches;
}

/** A lifecycle step moves the test's status and stamps some of its fields. */
function statusTouches(id: string | undefined, fields: readonly string[]): MeaningKey[] {
  if (id === undefined) return [['ab_tests']];
  return [['ab_tests', id, 'status'], ...fields.map((field) => ['ab_tests', id, field])];
}

function appOfTest(data: unknown, testId: string | undefined): MeaningKey {
  const test = testId === undefined ? undefined : itemById(data, 'ab_tests', testId);
  const app = isPlainObject(test) ? test.app : undefined;
  return typeof app === 'string' ? ['apps', app, 'settings'] : ['apps'];
}

/**
 * A pointer in meaning keys: under `apps` / `ab_tests` the index becomes the id the item
 * had in the config the operation applied to (a set that replaces an item also touches the
 * new value's id); what cannot be read that way is taken as the whole list.
 */
function pointerKeys(item: Item, before: DataBefore, isSet: boolean): MeaningKey[] {
  const tokens = typeof item.path === 'string' ? safeTokens(item.path) : undefined;
  if (tokens === undefined) return [];
  const [list, position, ...rest] = tokens;
  if (list === undefined || !LISTS.includes(list) || position === undefined) return [tokens];
  const whole: MeaningKey[] = [[list]];
  const newId = isSet && rest.length === 0 ? idOf(item.value) : undefined;
  const items = listOf(before(), list);
  // `-` appends only to a list: where there is none, a set writes a key named "-".
  if (position === '-') return isSet && newId !== undefined && items ? [[list, newId]] : whole;
  if (!isArrayIndexToken(position)) return whole;
  const index = Number(position);
  if (items === undefined) return whole;
  if (index === items.length && isSet && rest.length === 0) {
    return newId === undefined ? whole : [[list, newId]];
  }
  const id = uniqueIdAt(items, index);
  if (id === undefined) return whole;
  const keys: MeaningKey[] = [[list, id, ...rest]];
  if (newId !== undefined && newId !== id) keys.push([list, newId]);
  return keys;
}

function safeTokens(path: string): string[] | undefined {
  try {
    return parsePointer(path);
  } catch {
    return undefined;
  }
}

export function listOf(data: unknown, list: string): readonly unknown[] | undefined {
  const value = isPlainObject(data) ? data[list] : undefined;
  return Array.isArray(value) ? value : undefined;
}

/**
 * The id of the item at `index` when no other item holds it: an item without one, or one of
 * several with the same id, is known only by its position.
 */
export function uniqueIdAt(items: readonly unknown[], index: number): string | undefined {
  const id = idOf(items[index]);
  if (id === undefined) return undefined;
  return items.some((item, at) => at !== index && idOf(item) === id) ? undefined : id;
}

export function idOf(item: unknown): string | undefined {
  return isPlainObject(item) && typeof item.id === 'string' ? item.id : undefined;
}

/** The index of the first item with this id (the one operations act on); -1 when none. */
export function indexById(data: unknown, list: string, id: string): number {
  return listOf(data, list)?.findIndex((item) => idOf(item) === id) ?? -1;
}

function itemById(data: unknown, list: string, id: string): unknown {
  const index = indexById(data, list, id);
  return index < 0 ? undefined : listOf(data, list)?.[index];
}

/** The value at a meaning key; `present: false` when nothing is there. */
export function valueAt(
  data: unknown,
  key: MeaningKey,
): { readonly present: boolean; readonly value?: unknown } {
  let current: unknown = data;
  for (const [depth, token] of key.entries()) {
    const inList = depth === 1 && LISTS.includes(key[0] as string);
    if (inList) {
      const index = indexById(data, key[0] as string, token);
      if (index < 0) return { present: false };
      current = listOf(data, key[0] as string)?.[index];
    } else if (Array.isArray(current)) {
      if (!isArrayIndexToken(token) || Number(token) >= current.length) return { present: false };
      current = current[Number(token)];
    } else if (isPlainObject(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      return { present: false };
    }
  }
  return { present: true, value: current };
}

/** The JSON Pointer of a meaning key in `data`; undefined when its item is not there. */
export function pointerIn(data: unknown, key: MeaningKey): string | undefined {
  const [list, id, ...rest] = key;
  if (list === undefined || id === undefined || !LISTS.includes(list)) return toPointer(key);
  const index = indexById(data, list, id);
  return index < 0 ? undefined : toPointer([list, index, ...rest]);
}

/** Whether one key holds the other (or they are the same place). */
export function overlaps(a: MeaningKey, b: MeaningKey): boolean {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return false;
  return true;
}
