/**
 * The `edit_text` operation: the text a person typed, as changes to the saved text. The
 * operations say what the edit means; this says how it is written, and must say the same.
 */
import { actionKeyOf, itemsOf, type Operation, type TextChange } from '../contract/operations';
import { toPointer } from './json-pointer';
import type { OperationRefusal } from './operations/refusal';

/** The edit's text changes and where they sit in the request. */
export interface TextEdit {
  readonly changes: readonly TextChange[];
  readonly operationIndex: number;
}

/** The edit's one `edit_text` operation, if it has one (the contract allows at most one). */
export function textEditOf(operations: readonly Operation[]): TextEdit | undefined {
  const operationIndex = operations.findIndex(
    (operation) => actionKeyOf(operation) === 'edit_text',
  );
  if (operationIndex === -1) return undefined;
  const [item] = itemsOf(operations[operationIndex] as Operation);
  return { changes: (item?.changes ?? []) as TextChange[], operationIndex };
}

/** Between the two halves of a character outside the Basic Multilingual Plane. */
function splitsACharacter(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/**
 * `text` with the changes made, or the refusal of the first change that does not fit it:
 * past its end, or cutting a character in two (which would store a lone surrogate).
 * The contract has checked that the changes are in order and do not overlap.
 */
export function applyTextChanges(
  text: string,
  edit: TextEdit,
):
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly refusal: OperationRefusal } {
  const parts: string[] = [];
  let at = 0;
  for (const [index, change] of edit.changes.entries()) {
    const end = change.offset + change.delete_count;
    const problem =
      change.offset < at || end > text.length
        ? `the change from offset ${change.offset} to ${end} does not fit the saved text of ${text.length} UTF-16 code units`
        : splitsACharacter(text, change.offset) || splitsACharacter(text, end)
          ? `the change from offset ${change.offset} to ${end} cuts a character in two`
          : undefined;
    if (problem)
      return {
        ok: false,
        refusal: textRefusal(edit, index, 'invalid_operation', 'operation.invalid_item', problem),
      };
    parts.push(text.slice(at, change.offset), change.insert);
    at = end;
  }
  parts.push(text.slice(at));
  return { ok: true, text: parts.join('') };
}

/** A refusal of the edit's text, naming its item (or one of its changes). */
export function textRefusal(
  edit: TextEdit,
  changeIndex: number | undefined,
  kind: OperationRefusal['kind'],
  code: string,
  problem: string,
): OperationRefusal {
  const requestPath = toPointer([
    'operations',
    edit.operationIndex,
    'edit_text',
    0,
    ...(changeIndex === undefined ? [] : ['changes', changeIndex]),
  ]);
  return {
    kind,
    code,
    message: `${requestPath}: ${problem}`,
    operationIndex: edit.operationIndex,
    itemIndex: 0,
    action: 'edit_text',
    requestPath,
  };
}

/** Compared a block at a time (string equality is native), then a character at a time. */
const BLOCK = 4096;

/** How many first characters of `a` and `b` are the same, up to `limit`. */
export function samePrefixLength(a: string, b: string, limit: number): number {
  let at = 0;
  while (at + BLOCK <= limit && a.slice(at, at + BLOCK) === b.slice(at, at + BLOCK)) at += BLOCK;
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  return at;
}

/** How many last characters of `a` and `b` are the same, up to `limit`. */
export function sameSuffixLength(a: string, b: string, limit: number): number {
  let tail = 0;
  while (
    tail + BLOCK <= limit &&
    a.slice(a.length - tail - BLOCK, a.length - tail) ===
      b.slice(b.length - tail - BLOCK, b.length - tail)
  ) {
    tail += BLOCK;
  }
  while (tail < limit && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) {
    tail += 1;
  }
  return tail;
}

/**
 * The changes that make `after` of `before`: the one stretch between their common start
 * and common end (never cutting a character in two), or none when they are the same.
 */
export function textChangesBetween(before: string, after: string): TextChange[] {
  if (before === after) return [];
  const limit = Math.min(before.length, after.length);
  let start = samePrefixLength(before, after, limit);
  if (splitsACharacter(before, start) || splitsACharacter(after, start)) start--;
  let tail = sameSuffixLength(before, after, limit - start);
  if (
    splitsACharacter(before, before.length - tail) ||
    splitsACharacter(after, after.length - tail)
  ) {
    tail--;
  }
  return [
    {
      offset: start,
      delete_count: before.length - tail - start,
      insert: after.slice(start, after.length - tail),
    },
  ];
}

/**
 * `mine`, changes to a text, carried over the changes later edits made to that same text
 * (each list against the text the one before left): shifted past the changes before
 * them. Undefined when one of mine touches or adjoins a change of theirs, or when a later
 * edit's changes are not known: then there is no telling where mine belong.
 */
export function rebaseTextChanges(
  mine: readonly TextChange[],
  theirs: readonly (readonly TextChange[] | undefined)[],
): TextChange[] | undefined {
  let moved = [...mine];
  for (const changes of theirs) {
    if (changes === undefined) return undefined;
    const next: TextChange[] = [];
    for (const change of moved) {
      const end = change.offset + change.delete_count;
      let shift = 0;
      for (const their of changes) {
        const theirEnd = their.offset + their.delete_count;
        if (theirEnd < change.offset) shift += their.insert.length - their.delete_count;
        else if (their.offset <= end) return undefined;
      }
      next.push({ ...change, offset: change.offset + shift });
    }
    moved = next;
  }
  return moved;
}
