/**
 * From editor text to operations (docs/config.md): the console compares the person's YAML, as
 * data, with the config it was loaded from. Apps matched by id give create/update/delete_app;
 * new tests give create_ab_test; every other difference is a set/unset at the smallest path
 * that captures it. Comment-only and formatting-only changes give no operation.
 *
 * Applying the result to the loaded config reproduces the edited data exactly; a property
 * test holds this. Where the typed actions cannot express a change (a list reordered, an app
 * inserted mid-list, items without unique ids), the whole list is set instead.
 */
import type { ActionKey, Operation } from '../contract/operations';
import type { ValidationIssue } from '../contract/validation';
import { deepEqual, isPlainObject, type PlainObject } from './data';
import { toPointer, type PathSegment } from './json-pointer';
import { configData, parseConfig } from './parse';

export type EditorOperationsResult =
  | { readonly status: 'syntax_error'; readonly issues: readonly ValidationIssue[] }
  | { readonly status: 'unchanged' }
  | { readonly status: 'changed'; readonly operations: Operation[] };

/** Operations turning the config in `baseText` into the one in `editedText`. */
export function editorTextToOperations(
  baseText: string,
  editedText: string,
): EditorOperationsResult {
  const edited = configData(parseConfig(editedText));
  if (!edited.ok) return { status: 'syntax_error', issues: edited.issues };
  const base = configData(parseConfig(baseText));
  if (!base.ok) return { status: 'syntax_error', issues: base.issues };
  const operations = diffConfigData(base.data, edited.data);
  return operations.length === 0 ? { status: 'unchanged' } : { status: 'changed', operations };
}

/** Operations turning `base` into `edited` (both plain JSON data of a config). */
export function diffConfigData(base: unknown, edited: unknown): Operation[] {
  const ops = new OperationList();
  if (!isPlainObject(base) || !isPlainObject(edited)) {
    if (!deepEqual(base, edited)) ops.push('set', { path: '', value: edited });
    return ops.operations();
  }
  // Tests are removed or changed before apps are deleted (an app may not be deleted while a
  // running test targets it), and created after apps are (they name apps).
  const testsByKey = hasUniqueIds(base.ab_tests) && hasUniqueIds(edited.ab_tests);
  const createTests = testsByKey
    ? diffTests(ops, base.ab_tests as PlainObject[], edited.ab_tests as PlainObject[])
    : undefined;
  for (const key of unionKeys(base, edited)) {
    const before = base[key];
    const after = edited[key];
    if (deepEqual(before, after) || (key === 'ab_tests' && testsByKey)) continue;
    if (key === 'apps' && hasUniqueIds(before) && hasUniqueIds(after)) {
      diffApps(ops, before, after);
    } else {
      diffValue(ops, [key], before, after);
    }
  }
  createTests?.();
  return ops.operations();
}

/** Items of two lists with unique ids, matched by id. */
interface IdMatch {
  /** Items of `before` that `after` keeps, in `before`'s order, with their `after` version. */
  readonly kept: readonly { readonly before: PlainObject; readonly after: PlainObject }[];
  /** Indexes in `before` of the items `after` drops. */
  readonly removed: readonly number[];
  /** Items only `after` has, in its order. */
  readonly created: readonly PlainObject[];
  /** Whether kept-then-created is `after`'s order (else only setting the list can say it). */
  readonly appendOnly: boolean;
}

function matchById(before: readonly PlainObject[], after: readonly PlainObject[]): IdMatch {
  const afterById = new Map(after.map((item) => [item.id as string, item]));
  const beforeIds = new Set(before.map((item) => item.id as string));
  const kept = before.flatMap((item) => {
    const match = afterById.get(item.id as string);
    return match ? [{ before: item, after: match }] : [];
  });
  const removed = before.flatMap((item, index) =>
    afterById.has(item.id as string) ? [] : [index],
  );
  const created = after.filter((item) => !beforeIds.has(item.id as string));
  const order = [...kept.map((pair) => pair.after), ...created];
  const appendOnly = order.every((item, index) => item === after[index]);
  return { kept, removed, created, appendOnly };
}

function diffApps(ops: OperationList, before: PlainObject[], after: PlainObject[]): void {
  const { kept, removed, created, appendOnly } = matchById(before, after);
  if (!appendOnly) {
    ops.push('set', { path: '/apps', value: after });
    return;
  }
  for (const index of removed) ops.push('delete_app', { id: (before[index] as PlainObject).id });
  kept.forEach((pair, index) => diffApp(ops, index, pair.before, pair.after));
  for (const app of created) ops.push('create_app', app);
}

function diffApp(ops: OperationList, index: number, before: PlainObject, after: PlainObject): void {
  const update: PlainObject = { id: after.id };
  const path: PathSegment[] = ['apps', index];
  const generic: (() => void)[] = [];
  for (const field of unionKeys(before, after)) {
    if (field === 'id' || deepEqual(before[field], after[field])) continue;
    const was = before[field];
    const now = after[field];
    if (now === undefined) {
      generic.push(() => ops.push('unset', { path: toPointer([...path, field]) }));
    } else if (field === 'settings' && isPlainObject(was) && isPlainObject(now)) {
      const changes: PlainObject = {};
      for (const key of unionKeys(was, now)) {
        if (deepEqual(was[key], now[key])) continue;
        if (now[key] === null) {
          // In update_app a null removes the key; a real null value needs a set.
          generic.push(() =>
            ops.push('set', { path: toPointer([...path, 'settings', key]), value: null }),
          );
        } else {
          changes[key] = now[key] === undefined ? null : now[key];
        }
      }
      if (Object.keys(changes).length > 0) update.settings = changes;
    } else if (field === 'settings') {
      generic.push(() => ops.push('set', { path: toPointer([...path, field]), value: now }));
    } else {
      update[field] = now;
    }
  }
  if (Object.keys(update).length > 1) ops.push('update_app', update);
  generic.forEach((emit) => emit());
}

/** Removes and changes tests now; returns what creates the new ones, to run last. */
function diffTests(ops: OperationList, before: PlainObject[], after: PlainObject[]): () => void {
  const { kept, removed, created, appendOnly } = matchById(before, after);
  if (!appendOnly) {
    ops.push('set', { path: '/ab_tests', value: after });
    return () => undefined;
  }
  // Removing a test is a lifecycle step (delete_ab_test) that publishes; in a draft edit
  // the test is unset instead, from the end so that indexes stay right.
  for (const index of [...removed].reverse()) {
    ops.push('unset', { path: toPointer(['ab_tests', index]) });
  }
  kept.forEach((pair, index) => diffValue(ops, ['ab_tests', index], pair.before, pair.after));
  return () =>
    created.forEach((test, offset) => {
      const { status, ...item } = test;
      ops.push('create_ab_test', item);
      // create_ab_test writes status draft; anything else the person typed is set after.
      const path = toPointer(['ab_tests', kept.length + offset, 'status']);
      if (status === undefined) ops.push('unset', { path });
      else if (status !== 'draft') ops.push('set', { path, value: status });
    });
}

/** set/unset at the smallest paths that turn `before` into `after`. */
function diffValue(ops: OperationList, path: PathSegment[], before: unknown, after: unknown): void {
  if (deepEqual(before, after)) return;
  if (after === undefined) {
    ops.push('unset', { path: toPointer(path) });
  } else if (isPlainObject(before) && isPlainObject(after)) {
    for (const key of unionKeys(before, after))
      diffValue(ops, [...path, key], before[key], after[key]);
  } else if (Array.isArray(before) && Array.isArray(after)) {
    const common = Math.min(before.length, after.length);
    for (let index = 0; index < common; index++) {
      diffValue(ops, [...path, index], before[index], after[index]);
    }
    for (let index = common; index < after.length; index++) {
      ops.push('set', { path: toPointer([...path, index]), value: after[index] });
    }
    for (let index = before.length - 1; index >= common; index--) {
      ops.push('unset', { path: toPointer([...path, index]) });
    }
  } else {
    ops.push('set', { path: toPointer(path), value: after });
  }
}

/** Collects items, merging consecutive items of the same action into one operation. */
class OperationList {
  private readonly list: { action: ActionKey; items: PlainObject[] }[] = [];

  push(action: ActionKey, item: PlainObject): void {
    const last = this.list.at(-1);
    if (last?.action === action) last.items.push(item);
    else this.list.push({ action, items: [item] });
  }

  operations(): Operation[] {
    return this.list.map(({ action, items }) => ({ [action]: items }) as Operation);
  }
}

function hasUniqueIds(value: unknown): value is PlainObject[] {
  if (!Array.isArray(value)) return false;
  const ids = new Set<string>();
  for (const item of value) {
    if (!isPlainObject(item) || typeof item.id !== 'string' || ids.has(item.id)) return false;
    ids.add(item.id);
  }
  return true;
}

function unionKeys(a: PlainObject, b: PlainObject): string[] {
  const keys = Object.keys(a);
  for (const key of Object.keys(b)) if (!Object.hasOwn(a, key)) keys.push(key);
  return keys;
}
