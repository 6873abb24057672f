/**
 * The parsed config of an edited document's text without parsing it whole: the list items
 * the text changed in are parsed again and the ranges after them moved; anything it cannot
 * be sure of gives undefined, and the caller parses the whole text (docs/architecture.md).
 */
import {
  isCollection,
  isDocument,
  isPair,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
  type YAMLSeq,
} from 'yaml';
import { writeBaseOf, type WriteBase, type WrittenText } from './incremental-stringify';
import type { EditChanges } from './operations/edit-changes';
import { parseConfig, YAML_PARSE_OPTIONS, type ParsedConfig } from './parse';
import {
  hasAnchorsOrAliases,
  hasDirectivesOrMarkers,
  mayHoldAnchors,
  sourceRange,
} from './yaml-tree';
import { samePrefixLength, sameSuffixLength } from './text-edit';
import { sameComments, sameCommentsBefore, shiftNode, shiftRanges } from './yaml-subtrees';

const NEWLINE = 0x0a;
const SPACE = 0x20;
const DASH = 0x2d;

/** What an edit needs to know about the document before operations change it. */
export interface EditBase {
  /** The text the document was parsed from (its ranges are offsets into it). */
  readonly text: string;
  /** No anchors or aliases: an item's nodes are its own, so changes noted by item hold. */
  readonly anchorFree: boolean;
  /** The items of each top-level block list, as they were. */
  readonly lists: ReadonlyMap<YAMLSeq, readonly unknown[]>;
  /** What writing the edited document back to text needs (incremental-stringify.ts). */
  readonly write?: WriteBase;
}

/**
 * Takes note of the document's lists before operations change it in place (`written`: what
 * the last edit wrote for it, if any); undefined when the document is not one the
 * incremental parse can follow (syntax errors, not a mapping).
 */
export function editBaseOf(parsed: ParsedConfig, written?: WrittenText): EditBase | undefined {
  if (parsed.syntaxIssues.length > 0 || parsed.document.errors.length > 0) return undefined;
  const root = parsed.document.contents;
  if (!isCollection(root) || isSeq(root) || root.flow) return undefined;
  const lists = new Map<YAMLSeq, readonly unknown[]>();
  for (const pair of root.items) {
    if (isSeq(pair.value) && !pair.value.flow) lists.set(pair.value, [...pair.value.items]);
  }
  return {
    text: parsed.text,
    anchorFree: !mayHoldAnchors(parsed.document, parsed.text),
    lists,
    write: writeBaseOf(parsed, written),
  };
}

/** A parsed config an edit made, and whether its reused list items are known unchanged. */
export interface EditedParse {
  readonly parsed: ParsedConfig;
  /**
   * Every list item that is the same node as before the edit is unchanged since: the same
   * subtree and text, its ranges moved with the text. False for a whole parse.
   */
  readonly reusedItemsUnchanged: boolean;
}

/**
 * The parsed config of `text`, which `document` (parsed from `base.text`, then changed in
 * place by operations that noted what they changed in `changes`) was written to:
 * incrementally when it can be, else a whole parse. `document` is taken over (its nodes
 * are reused) either way.
 */
export function parseEdited(
  base: EditBase | undefined,
  document: Document.Parsed,
  text: string,
  changes?: EditChanges,
): EditedParse {
  return (
    (base && parseIncrementally(base, document, text, changes)) ?? {
      parsed: parseConfig(text),
      reusedItemsUnchanged: false,
    }
  );
}

/** The incremental parse alone, or undefined when only a whole parse is certain. */
export function parseIncrementally(
  base: EditBase,
  document: Document.Parsed,
  text: string,
  changes?: EditChanges,
): EditedParse | undefined {
  const old = base.text;
  if (
    hasDirectivesOrMarkers(old) ||
    hasDirectivesOrMarkers(text) ||
    text.includes('\r') ||
    text.startsWith('\uFEFF')
  ) {
    return undefined;
  }
  // The one stretch the texts differ in: [start, oldEnd) before, [start, newEnd) after.
  const limit = Math.min(old.length, text.length);
  const start = samePrefixLength(old, text, limit);
  const tail = sameSuffixLength(old, text, limit - start);
  const oldEnd = old.length - tail;
  const delta = text.length - old.length;

  let window: Window | undefined;
  if (start < old.length || oldEnd < old.length || delta !== 0) {
    window = findWindow(base, document, text, start, oldEnd, delta);
    if (!window) return undefined;
  }
  // Unchanged text: every node must still be the one parsed from it (ranges intact).
  const cutStart = window ? window.cutStart : old.length;
  const cutEnd = window ? window.cutEnd : old.length;
  const known = changes !== undefined && base.anchorFree && changedOnlyIn(changes, window);
  if (known) {
    moveRangesAfter(document, window, cutEnd, delta);
  } else {
    // The edited items in the stretch are dropped, whatever the operations made of them.
    const skip = new Set<unknown>(
      window ? window.seq.items.slice(window.from, window.from + window.replaced) : [],
    );
    if (!shiftRanges(document, skip, cutStart, cutEnd, delta)) return undefined;
  }
  if (window) window.seq.items.splice(window.from, window.replaced, ...window.fresh);
  const parsed = { text, document, lineCounter: lineCounterOf(text), syntaxIssues: [] };
  return { parsed, reusedItemsUnchanged: known };
}

/**
 * Whether the operations changed nothing outside the stretch parsed again: nothing
 * elsewhere, no list but the stretch's, no item of it changed in place outside the
 * stretch (the items there are the ones of before: `findWindow` checked).
 */
function changedOnlyIn(changes: EditChanges, window: Window | undefined): boolean {
  if (changes.elsewhere) return false;
  if (!window) return changes.lists.size === 0;
  for (const seq of changes.lists) if (seq !== window.seq) return false;
  const items = window.seq.items;
  const end = window.from + window.replaced;
  for (let index = 0; index < items.length; index++) {
    if (index === window.from) index = end;
    if (index < items.length && changes.items.has(items[index])) return false;
  }
  return true;
}

/**
 * Moves by `delta` every offset from `cutEnd` on, in the document's ranges and every node
 * but the items in the stretch (which are dropped); one tight pass, as the nodes are known
 * to be the parsed ones.
 */
function moveRangesAfter(
  document: Document.Parsed,
  window: Window | undefined,
  cutEnd: number,
  delta: number,
): void {
  if (delta === 0) return;
  const move = (range: number[]) => {
    if ((range[0] as number) >= cutEnd) range[0] = (range[0] as number) + delta;
    if ((range[1] as number) >= cutEnd) range[1] = (range[1] as number) + delta;
    if ((range[2] as number) >= cutEnd) range[2] = (range[2] as number) + delta;
  };
  if (document.range) move(document.range);
  const stack: unknown[] = [document.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || node === undefined) continue;
    if (isPair(node)) {
      stack.push(node.value, node.key);
      continue;
    }
    const range = sourceRange(node);
    if (range) move(range);
    if (!isCollection(node)) continue;
    const items = node.items;
    const skipFrom = window && node === window.seq ? window.from : -1;
    const skipTo = skipFrom === -1 ? -1 : skipFrom + (window?.replaced ?? 0);
    for (let index = items.length - 1; index >= 0; index--) {
      if (index < skipFrom || index >= skipTo) stack.push(items[index]);
    }
  }
}

interface Window {
  readonly seq: YAMLSeq;
  /** Index in the edited list of the first item replaced, and how many are replaced. */
  readonly from: number;
  readonly replaced: number;
  /** The items parsed again, with ranges in the new text. */
  readonly fresh: readonly Node[];
  /** Old offsets in [cutStart, cutEnd) belong to replaced items; later ones move. */
  readonly cutStart: number;
  readonly cutEnd: number;
}

/**
 * Finds the list whose inner items hold the changed stretch, parses those items again in
 * the new text and checks that the rest of the list is what it was.
 */
function findWindow(
  base: EditBase,
  document: Document.Parsed,
  text: string,
  start: number,
  oldEnd: number,
  delta: number,
): Window | undefined {
  const old = base.text;
  for (const [seq, items] of base.lists) {
    const count = items.length;
    if (count < 3) continue;
    const dash = (index: number) => dashOf(old, items[index]);
    const first = dash(1);
    const last = dash(count - 1);
    if (first === undefined || last === undefined || start < first || oldEnd > last) continue;
    // a: the last item (not the first) whose dash is at or before the change; b: the item
    // before the first one (not the last) whose dash is at or after its end.
    let a = 1;
    for (let low = 1, high = count - 2; low <= high;) {
      const mid = (low + high) >> 1;
      const at = dash(mid);
      if (at === undefined) return undefined;
      if (at <= start) {
        a = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    let b = count - 2;
    for (let low = a, high = count - 2; low <= high;) {
      const mid = (low + high) >> 1;
      const at = dash(mid + 1);
      if (at === undefined) return undefined;
      if (at >= oldEnd) {
        b = mid;
        high = mid - 1;
      } else low = mid + 1;
    }
    const cutStart = dash(a);
    const cutEnd = dash(b + 1);
    const before = dash(a - 1);
    if (cutStart === undefined || cutEnd === undefined || before === undefined) return undefined;
    if (start < cutStart || oldEnd > cutEnd) return undefined;

    // The edited list must be the same list, with the same items outside the stretch.
    if (!isDocument(document) || !listStillHolds(document, seq)) return undefined;
    const keptAfter = count - 1 - b;
    const replaced = seq.items.length - a - keptAfter;
    if (replaced < 0) return undefined;
    for (let index = 0; index < a; index++) {
      if (seq.items[index] !== items[index]) return undefined;
    }
    for (let index = 0; index < keptAfter; index++) {
      if (seq.items[seq.items.length - 1 - index] !== items[count - 1 - index]) return undefined;
    }

    // Parse the new stretch with an unchanged item on each side.
    const contextStart = lineStart(old, before);
    const contextEndOld =
      b + 2 < count ? lineStart(old, dash(b + 2) ?? -1) : lineEndAfter(old, nodeEnd(items[b + 1]));
    if (contextEndOld < cutEnd) return undefined;
    const piece = text.slice(contextStart, contextEndOld + delta);
    const parsed = parseDocument(piece, YAML_PARSE_OPTIONS);
    if (parsed.errors.length > 0 || !isSeq(parsed.contents) || parsed.contents.flow) {
      return undefined;
    }
    if ((piece.includes('&') || piece.includes('*')) && hasAnchorsOrAliases(parsed)) {
      return undefined;
    }
    const parsedItems = parsed.contents.items;
    if (parsedItems.length < 2) return undefined;
    const fresh = parsedItems.slice(1, -1) as Node[];
    // The new items sit where the old ones did: dashes in the same column.
    const column = before - contextStart;
    for (const node of fresh) {
      const at = dashOf(piece, node);
      if (at === undefined || at - lineStart(piece, at) !== column) return undefined;
      if (!shiftNode(node, contextStart)) return undefined;
    }
    // The unchanged neighbours read as they did: comments between the items attach alike.
    if (!sameComments(parsedItems[0], items[a - 1], true)) return undefined;
    if (!sameCommentsBefore(parsedItems[parsedItems.length - 1], items[b + 1])) return undefined;
    return { seq, from: a, replaced, fresh, cutStart, cutEnd };
  }
  return undefined;
}

/** The list is still the value of a pair of the root mapping (operations may replace it). */
function listStillHolds(document: Document.Parsed, seq: YAMLSeq): boolean {
  const root = document.contents;
  if (!isCollection(root) || isSeq(root)) return false;
  return root.items.some((pair) => pair.value === seq) && !seq.flow;
}

function nodeEnd(node: unknown): number {
  return sourceRange(node)?.[2] ?? -1;
}

/**
 * The offset of the `-` of a block list item that starts on its dash's line (`- id: x`):
 * only spaces before the dash on the line, only spaces between the dash and the node.
 */
function dashOf(text: string, item: unknown): number | undefined {
  const range = sourceRange(item);
  if (!range) return undefined;
  let at = range[0] - 1;
  while (at >= 0 && text.charCodeAt(at) === SPACE) at -= 1;
  if (at < 0 || text.charCodeAt(at) !== DASH || at === range[0] - 1) return undefined;
  for (let before = at - 1; before >= 0 && text.charCodeAt(before) !== NEWLINE; before--) {
    if (text.charCodeAt(before) !== SPACE) return undefined;
  }
  return at;
}

function lineStart(text: string, offset: number): number {
  return offset < 0 ? -1 : text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset after the newline ending the line that holds `offset` (or the text's end). */
function lineEndAfter(text: string, offset: number): number {
  if (offset < 0) return -1;
  if (offset > 0 && text.charCodeAt(offset - 1) === NEWLINE) return offset;
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline + 1;
}

/** Line starts as the parser's LineCounter records them: 0 and after every newline. */
function lineCounterOf(text: string): LineCounter {
  const counter = new LineCounter();
  counter.addNewLine(0);
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    counter.addNewLine(at + 1);
  }
  return counter;
}
