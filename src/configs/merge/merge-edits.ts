/**
 * Whether an edit made on an older revision of a config can apply to its current revision:
 * it can when none of its operations touches what the edits since touched (touches.ts), or
 * when both wrote the same value there. Then its operations apply to the current config,
 * their list positions moved to where the same items sit now; otherwise each field both
 * changed is a conflict, with its value at the base revision, now, and after this edit.
 */
import { isMap, isSeq, type Document } from 'yaml';
import type { Operation, TextChange } from '../../contract/operations';
import type { EditConflict } from '../../contract/problem';
import { deepEqual } from '../data';
import { isArrayIndexToken, parsePointer, toPointer } from '../json-pointer';
import { applyOperations } from '../operations/apply-operations';
import { findPair, resolveAlias, stringValue, type TreeNode } from '../yaml-tree';
import {
  dependsOnPositions,
  indexById,
  listOf,
  overlaps,
  pointerIn,
  positionalList,
  touchesOf,
  uniqueIdAt,
  valueAt,
  type MeaningKey,
  type Touch,
} from './touches';

/** An edit stored since the base revision, oldest first. */
export interface NewerEdit {
  readonly revision: number;
  /** Its author: an e-mail, else the API key's name. */
  readonly by: string;
  readonly at: string;
  readonly operations: readonly Operation[];
  /** How it changed the text; undefined when that is not known. */
  readonly textChanges?: readonly TextChange[];
}

export interface MergeInput {
  /** This edit's operations, made on the config at the base revision. */
  readonly mine: readonly Operation[];
  readonly newer: readonly NewerEdit[];
  /**
   * The config at the base revision, rebuilt only when the judgment needs it (positions to
   * read, or values of a field both touched); undefined when it cannot be rebuilt.
   */
  readonly base: () => Document | undefined;
  /** The current config; not changed (copies are taken). */
  readonly current: () => Document;
}

export type MergeJudgment =
  | {
      readonly kind: 'merge';
      /** This edit's operations as they apply to the current config. */
      readonly operations: readonly Operation[];
      readonly mergedRevisions: readonly number[];
    }
  | { readonly kind: 'conflict'; readonly conflicts: readonly EditConflict[] }
  | { readonly kind: 'base_unavailable' };

interface TheirTouch extends Touch {
  readonly edit: NewerEdit;
}

interface Candidate {
  /** The more precise of the two keys: where the conflict is reported. */
  readonly key: MeaningKey;
  /** The broader of the keys: the same value must be there on both sides for a merge. */
  compared: MeaningKey;
  sameValueMerges: boolean;
  edit: NewerEdit;
}

/**
 * Whether the judgment can do without the config at the base revision: no operation on
 * either side depends on list positions, and nothing both sides touched needs its values
 * compared. Cheap (operations only), so that a caller can skip reading what rebuilds it.
 */
export function judgedWithoutBase(
  mine: readonly Operation[],
  newer: readonly NewerEdit[],
): boolean {
  if (needsPositions(mine, newer)) return false;
  return overlapping(touchesAlong(undefined, mine), theirTouches(newer, undefined)).length === 0;
}

function needsPositions(mine: readonly Operation[], newer: readonly NewerEdit[]): boolean {
  return (
    mine.some(dependsOnPositions) || newer.some((edit) => edit.operations.some(dependsOnPositions))
  );
}

export function judgeMerge(input: MergeInput): MergeJudgment {
  const mergedRevisions = input.newer.map((edit) => edit.revision);
  const positions = needsPositions(input.mine, input.newer);
  const base = lazy(input.base);
  if (positions && base() === undefined) return { kind: 'base_unavailable' };

  const theirs = theirTouches(input.newer, positions ? base()?.clone() : undefined);
  const mine = touchesAlong(positions ? base()?.clone() : undefined, input.mine);
  const candidates = overlapping(mine, theirs);
  if (candidates.length === 0) return merged(input, base, mergedRevisions);

  const baseDocument = base();
  if (baseDocument === undefined) return { kind: 'base_unavailable' };
  const baseData = baseDocument.toJS() as unknown;
  const currentData = input.current().toJS() as unknown;
  const mineDocument = baseDocument.clone();
  const mineData = applyOperations(mineDocument, input.mine).ok
    ? (mineDocument.toJS() as unknown)
    : undefined;
  const conflicts: EditConflict[] = [];
  for (const candidate of candidates) {
    if (candidate.sameValueMerges && mineData !== undefined) {
      // Present on both sides: an item replaced by something without its id reads as absent.
      const now = valueAt(currentData, candidate.compared);
      const after = valueAt(mineData, candidate.compared);
      if (now.present && after.present && deepEqual(now.value, after.value)) continue;
    }
    const now = valueAt(currentData, candidate.key);
    const after = mineData === undefined ? { present: false } : valueAt(mineData, candidate.key);
    const before = valueAt(baseData, candidate.key);
    conflicts.push({
      path:
        pointerIn(currentData, candidate.key) ??
        pointerIn(baseData, candidate.key) ??
        (mineData === undefined ? undefined : pointerIn(mineData, candidate.key)) ??
        toPointer(candidate.key),
      ...(before.present ? { base: before.value } : {}),
      ...(now.present ? { theirs: now.value } : {}),
      ...(after.present ? { mine: after.value } : {}),
      revision: candidate.edit.revision,
      by: candidate.edit.by,
      at: candidate.edit.at,
    });
  }
  if (conflicts.length === 0) return merged(input, base, mergedRevisions);
  return { kind: 'conflict', conflicts };
}

const noData = (): unknown => undefined;

function lazy<T>(read: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = read();
      done = true;
    }
    return value;
  };
}

/** Each newer edit's touches, read on the config it applied to (replayed on `document`). */
function theirTouches(newer: readonly NewerEdit[], document: Document | undefined): TheirTouch[] {
  return newer.flatMap((edit) =>
    touchesAlong(document, edit.operations).map((touch) => ({ ...touch, edit })),
  );
}

/**
 * The touches of `operations`, each read on the config it applies to: `document` (a copy
 * of the caller's, changed in place) when one is given, walked one operation at a time only
 * when an operation depends on list positions.
 */
function touchesAlong(document: Document | undefined, operations: readonly Operation[]): Touch[] {
  if (document === undefined || !operations.some(dependsOnPositions)) {
    const touches = touchesOf(operations, noData);
    if (document) applyOperations(document, operations);
    return touches;
  }
  return operations.flatMap((operation) => {
    const touches = touchesOf([operation], () => skeletonOf(document));
    applyOperations(document, [operation]);
    return touches;
  });
}

/**
 * What positions mean in a config, read without converting it whole: the id of each item
 * of `apps` and `ab_tests` (the first `id` of a mapping, as operations read it), and each
 * test's app.
 */
function skeletonOf(document: Document): unknown {
  const field = (node: TreeNode, key: string) =>
    stringValue(resolveAlias(document, (findPair(node, key)?.value ?? null) as TreeNode));
  const root = resolveAlias(document, document.contents as TreeNode);
  const skeleton: Record<string, unknown> = {};
  for (const list of ['apps', 'ab_tests']) {
    const items = resolveAlias(document, (findPair(root, list)?.value ?? null) as TreeNode);
    if (!isSeq(items)) continue;
    skeleton[list] = items.items.map((raw) => {
      const item = resolveAlias(document, raw as TreeNode);
      if (!isMap(item)) return null;
      const id = field(item, 'id');
      const app = list === 'ab_tests' ? field(item, 'app') : undefined;
      return { ...(id === undefined ? {} : { id }), ...(app === undefined ? {} : { app }) };
    });
  }
  return skeleton;
}

/** Keys both sides touched, as the more precise of the two; one candidate per key. */
function overlapping(mine: readonly Touch[], theirs: readonly TheirTouch[]): Candidate[] {
  const byKey = new Map<string, TheirTouch[]>();
  const byPrefix = new Map<string, TheirTouch[]>();
  for (const touch of theirs) {
    push(byKey, toPointer(touch.key), touch);
    for (let length = 0; length < touch.key.length; length++) {
      push(byPrefix, toPointer(touch.key.slice(0, length)), touch);
    }
  }
  const candidates = new Map<string, Candidate>();
  for (const touch of mine) {
    const matches = [...(byPrefix.get(toPointer(touch.key)) ?? [])];
    for (let length = 0; length <= touch.key.length; length++) {
      matches.push(...(byKey.get(toPointer(touch.key.slice(0, length))) ?? []));
    }
    for (const their of matches) {
      if (!overlaps(touch.key, their.key)) continue;
      const [compared, key] =
        touch.key.length >= their.key.length ? [their.key, touch.key] : [touch.key, their.key];
      const name = toPointer(key);
      const sameValueMerges = touch.sameValueMerges && their.sameValueMerges;
      const known = candidates.get(name);
      if (!known) {
        candidates.set(name, { key, compared, sameValueMerges, edit: their.edit });
        continue;
      }
      known.sameValueMerges &&= sameValueMerges;
      if (compared.length < known.compared.length) known.compared = compared;
      if (their.edit.revision > known.edit.revision) known.edit = their.edit;
    }
  }
  return [...candidates.values()];
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function merged(
  input: MergeInput,
  base: () => Document | undefined,
  mergedRevisions: readonly number[],
): MergeJudgment {
  const operations = input.mine.some(dependsOnPositions)
    ? rebased(input.mine, base(), input.current())
    : input.mine;
  return { kind: 'merge', operations, mergedRevisions };
}

/**
 * Moves the list positions in `set` / `unset` pointers from the base config to the current
 * one: `/apps/3/name` names the app that was fourth at the base, wherever it sits now.
 */
function rebased(
  operations: readonly Operation[],
  base: Document | undefined,
  current: Document,
): Operation[] {
  const onBase = base?.clone();
  const onCurrent = current.clone();
  return operations.map((operation) => {
    let moved = operation;
    if (onBase && dependsOnPositions(operation) && ('set' in operation || 'unset' in operation)) {
      const from = skeletonOf(onBase);
      const to = skeletonOf(onCurrent);
      const [action, items] =
        'set' in operation
          ? (['set', operation.set] as const)
          : (['unset', operation.unset] as const);
      moved = {
        [action]: items.map((item) => ({ ...item, path: movedPath(item.path, from, to) })),
      } as Operation;
    }
    if (onBase) applyOperations(onBase, [operation]);
    applyOperations(onCurrent, [moved]);
    return moved;
  });
}

function movedPath(path: string, from: unknown, to: unknown): string {
  const list = positionalList(path);
  if (list === undefined) return path;
  const [, position, ...rest] = parsePointer(path);
  if (position === undefined || !isArrayIndexToken(position)) return path;
  const before = listOf(from, list);
  const after = listOf(to, list);
  if (before === undefined || after === undefined) return path;
  const index = Number(position);
  if (index === before.length) return toPointer([list, after.length, ...rest]);
  // An item known only by its position touches the whole list: nothing newer moved it.
  const id = uniqueIdAt(before, index);
  const now = id === undefined ? -1 : indexById(to, list, id);
  return now < 0 ? path : toPointer([list, now, ...rest]);
}
