/**
 * The text of an edited document without stringifying it whole: when the operations changed
 * one stretch of one top-level list, `yaml` writes those items between their unchanged
 * neighbours and that is spliced into the previous text (docs/architecture.md).
 */
import {
  Document,
  isAlias,
  isCollection,
  isNode,
  isPair,
  isSeq,
  Pair,
  parseDocument,
  Scalar,
  YAMLMap,
  YAMLSeq,
} from 'yaml';
import type { EditChanges } from './operations/edit-changes';
import {
  stringifyConfig,
  YAML_PARSE_OPTIONS,
  YAML_STRINGIFY_OPTIONS,
  type ParsedConfig,
} from './parse';
import { hasDirectivesOrMarkers, mayHoldAnchors, sourceRange } from './yaml-tree';

/** What writing an edited document needs to know about it before operations change it. */
export interface WriteBase {
  /** The text `stringifyConfig` writes for the document as it was. */
  readonly text: string;
  /** Per top-level block list: its items as they were. */
  readonly lists: ReadonlyMap<YAMLSeq, readonly unknown[]>;
}

/** A text `writeEdited` wrote, and the items of the document's lists when it did. */
export interface WrittenText {
  readonly text: string;
  readonly lists: ReadonlyMap<YAMLSeq, readonly unknown[]>;
}

/**
 * Takes note of a document's lists before operations change it in place, given what was
 * last written for it; undefined when its text is not known to be what `stringifyConfig`
 * writes for it (then the edit writes it whole).
 */
export function writeBaseOf(
  parsed: ParsedConfig,
  written: WrittenText | undefined,
): WriteBase | undefined {
  const { document, text } = parsed;
  if (
    !written ||
    written.text !== text ||
    hasDirectivesOrMarkers(text) ||
    mayHoldAnchors(document, text)
  ) {
    return undefined;
  }
  const lists = blockListsOf(document);
  if (!lists || lists.length !== written.lists.size) return undefined;
  for (const seq of lists) {
    const before = written.lists.get(seq);
    if (!before || !sameWriting(document, before, seq.items)) return undefined;
  }
  return { text, lists: listItems(lists) };
}

/**
 * `stringifyConfig(document)`, for a document changed in place since `base` was taken by
 * operations that noted what they changed in `changes`: the old text with the changed
 * items written again when that is certain to give the same text, else the whole document
 * written. Returns the text with the note the next edit's `writeBaseOf` needs.
 */
export function writeEdited(
  base: WriteBase | undefined,
  document: Document,
  changes: EditChanges,
): { readonly text: string; readonly written: WrittenText | undefined } {
  const text = (base && writeIncrementally(base, document, changes)) ?? stringifyConfig(document);
  const lists = blockListsOf(document);
  return { text, written: lists && { text, lists: listItems(lists) } };
}

function listItems(lists: readonly YAMLSeq[]): Map<YAMLSeq, readonly unknown[]> {
  return new Map(lists.map((seq) => [seq, [...seq.items]]));
}

/** The splice alone, or undefined when only writing the whole document is certain. */
export function writeIncrementally(
  base: WriteBase,
  document: Document,
  changes: EditChanges,
): string | undefined {
  if (changes.elsewhere || changes.lists.size > 1) return undefined;
  const [seq] = changes.lists;
  if (!seq) return base.text;
  const was = base.lists.get(seq);
  if (!was || seq.flow || !blockListsOf(document)?.includes(seq)) return undefined;
  const items = seq.items;
  const bound = Math.min(items.length, was.length);
  const same = (now: number, then: number) =>
    items[now] === was[then] && !changes.items.has(items[now]);
  let from = 0;
  while (from < bound && same(from, from)) from += 1;
  if (from === items.length && from === was.length) return base.text;
  let keptAfter = 0;
  while (
    from + keptAfter < bound &&
    same(items.length - 1 - keptAfter, was.length - 1 - keptAfter)
  ) {
    keptAfter += 1;
  }
  if (from < 1 || keptAfter < 1) return undefined;
  const stretch = items.slice(from, items.length - keptAfter);
  for (const item of stretch) {
    if (!splicable(item)) return undefined;
  }
  const before = items[from - 1];
  const after = items[items.length - keptAfter];
  // The old text's lines from the neighbour before to the neighbour after.
  const old = base.text;
  const oldFrom = dashLineOf(old, was[from - 1]);
  const oldTo = dashLineOf(old, was[was.length - keptAfter]);
  if (oldFrom === undefined || oldTo === undefined || oldTo <= oldFrom) return undefined;
  const piece = writtenBetween(document, before, stretch, after);
  if (!piece || !old.startsWith(piece.afterItem, oldTo)) return undefined;
  if (!old.startsWith(piece.beforeLine, oldFrom)) return undefined;
  return old.slice(0, oldFrom) + piece.between + old.slice(oldTo);
}

/**
 * What the stringifier writes for `[before, ...stretch, after]` as a top-level list: the
 * text from `before`'s dash line up to `after`'s dash line, `before`'s dash line alone,
 * and `after`'s item with the newline that follows it.
 */
function writtenBetween(
  document: Document,
  before: unknown,
  stretch: readonly unknown[],
  after: unknown,
): { between: string; beforeLine: string; afterItem: string } | undefined {
  const text = writeAsList(document, [before, ...stretch, after]);
  if (text === undefined) return undefined;
  const parsed = parseDocument(text, YAML_PARSE_OPTIONS);
  if (parsed.errors.length > 0) return undefined;
  const root = parsed.contents;
  if (!(root instanceof YAMLMap) || root.items.length !== 1) return undefined;
  const list = root.items[0]?.value;
  if (!isSeq(list) || list.flow || list.items.length !== stretch.length + 2) return undefined;
  const from = dashLineOf(text, list.items[0]);
  const to = dashLineOf(text, list.items[list.items.length - 1]);
  if (from === undefined || to === undefined || to <= from) return undefined;
  const lineEnd = text.indexOf('\n', from);
  return {
    between: text.slice(from, to),
    beforeLine: text.slice(from, lineEnd + 1),
    // The list is the last thing written: `after` runs to the text's final newline, and in
    // the old text the next item, the next key or the end follows it on a new line.
    afterItem: text.slice(to),
  };
}

/**
 * `items` written by `yaml` as the items of a block list that is the value of a key of the
 * root mapping (the indentation of `apps:` and `ab_tests:`), with the document's schema and
 * directives.
 */
function writeAsList(document: Document, items: readonly unknown[]): string | undefined {
  const temp = new Document(null, { version: '1.2' });
  temp.schema = document.schema;
  temp.directives = document.directives;
  const seq = new YAMLSeq(document.schema);
  seq.items = [...items];
  const map = new YAMLMap(document.schema);
  map.items = [new Pair(new Scalar('k'), seq)];
  temp.contents = map;
  try {
    return temp.toString(YAML_STRINGIFY_OPTIONS);
  } catch {
    return undefined;
  }
}

/**
 * Whether a list written with `then` items gives the same text as with `now` items: true
 * when they are the same items, or differ in one stretch with an unchanged item on each
 * side and the stringifier writes the two stretches alike between those neighbours.
 */
function sameWriting(
  document: Document,
  then: readonly unknown[],
  now: readonly unknown[],
): boolean {
  const bound = Math.min(then.length, now.length);
  let from = 0;
  while (from < bound && then[from] === now[from]) from += 1;
  if (from === then.length && from === now.length) return true;
  let keptAfter = 0;
  while (
    from + keptAfter < bound &&
    then[then.length - 1 - keptAfter] === now[now.length - 1 - keptAfter]
  ) {
    keptAfter += 1;
  }
  if (from < 1 || keptAfter < 1) return false;
  const write = (items: readonly unknown[]) =>
    writeAsList(document, items.slice(from - 1, items.length - keptAfter + 1));
  const a = write(then);
  return a !== undefined && a === write(now);
}

/** The items of the root mapping's block lists; undefined when the root is not a block map. */
function blockListsOf(document: Document): YAMLSeq[] | undefined {
  const root = document.contents;
  if (!(root instanceof YAMLMap) || root.flow) return undefined;
  const lists: YAMLSeq[] = [];
  for (const pair of root.items) {
    if (isSeq(pair.value) && !pair.value.flow) lists.push(pair.value);
  }
  return lists;
}

/**
 * Whether the splice follows everything the stringifier can read of a tree: no aliases,
 * anchors, non-node values or object values (a schema aside) among the nodes' own
 * properties.
 */
function splicable(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || node === undefined) continue;
    if (isPair(node)) {
      stack.push(node.value, node.key);
      continue;
    }
    if (!isNode(node) || isAlias(node) || node.anchor) return false;
    const record = node as unknown as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (key === 'range' || key === 'srcToken' || key === 'items' || key === 'schema') continue;
      const value = record[key];
      if (typeof value === 'object' && value !== null) return false;
    }
    if (isCollection(node)) {
      for (let index = node.items.length - 1; index >= 0; index--) stack.push(node.items[index]);
    }
  }
  return true;
}

/**
 * The start of the line holding the `-` of a block list item that starts on its dash's
 * line (`  - id: x`): only spaces before the dash on the line, only spaces after it.
 */
function dashLineOf(text: string, item: unknown): number | undefined {
  const range = sourceRange(item);
  if (!range) return undefined;
  let at = range[0] - 1;
  while (at >= 0 && text[at] === ' ') at -= 1;
  if (at < 0 || text[at] !== '-' || at === range[0] - 1) return undefined;
  let start = at;
  while (start > 0 && text[start - 1] !== '\n') {
    start -= 1;
    if (text[start] !== ' ') return undefined;
  }
  return start;
}
