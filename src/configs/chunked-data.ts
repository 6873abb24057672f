/**
 * A config's YAML as plain data, re-reading only what changed since the last texts.
 *
 * Parsing a 10,000-app config whole takes seconds (docs/benchmarks.md: editor text to
 * operations), and a save needs the edited text as data. Configs are, in practice, a mapping of
 * a few top-level keys whose big values are block sequences (`apps`, `ab_tests`), one item
 * per app or test. This reader splits the text at those items by indentation, parses each
 * item on its own and caches its data by its text, so that a save after a small edit parses
 * one item. It answers only when the split is certain to read as the whole text does: any
 * other shape (flow style or a sequence at the top level, directives, several documents,
 * anchors or aliases, duplicate top-level keys, any parse error) gives `undefined`, and the
 * caller parses the whole text. A property test holds it equal to the full parse.
 *
 * The data it returns is shared between calls (an unchanged item is the same object): it is
 * frozen, and callers must copy before changing it.
 */
import { MAX_NESTING_DEPTH } from '../contract/limits';
import { normalizeLineEnds, parseDocumentWithin, YAML_PARSE_OPTIONS } from './parse';
import { hasAnchorsOrAliases } from './yaml-tree';

/**
 * A top-level key written as a plain scalar (no indicator first, no `:` or `#` inside), and
 * what follows its colon. Keys that read as something else (`null`, `~`) are caught later:
 * the skeleton's data must hold the key as written.
 */
const TOP_LEVEL_KEY = /^([^\s\-?:,[\]{}#&*!|>'"%@`][^:#]*?)[ \t]*:(?:[ \t]+(.*))?$/;
const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const DASH = 0x2d;

interface Section {
  readonly key: string;
  /** Each item of the block sequence, as its own text (comments after it included). */
  readonly items: string[];
}

/** Text cut into the skeleton (everything but the sequences' items) and the items. */
interface Split {
  readonly skeleton: string;
  readonly sections: readonly Section[];
}

/**
 * The lines of a text as offsets (no string per line: a 10,000-app config has 100,000
 * lines, and this runs on every save).
 */
class Lines {
  readonly starts: number[] = [];
  readonly ends: number[] = [];

  constructor(readonly text: string) {
    let start = 0;
    while (start <= text.length) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      this.starts.push(start);
      this.ends.push(end);
      start = end + 1;
    }
  }

  get length(): number {
    return this.starts.length;
  }

  /** Spaces and tabs before the line's content; the line's length when it has none. */
  depth(index: number): number {
    const start = this.starts[index] as number;
    const end = this.ends[index] as number;
    let at = start;
    while (at < end) {
      const code = this.text.charCodeAt(at);
      if (code !== SPACE && code !== TAB) break;
      at += 1;
    }
    return at - start;
  }

  /** Nothing but spaces and tabs, or a comment. */
  isBlankOrComment(index: number): boolean {
    const at = (this.starts[index] as number) + this.depth(index);
    return at === this.ends[index] || this.text.charCodeAt(at) === HASH;
  }

  /** A block sequence item (`- ` or a lone `-`) whose dash is at column `indent`. */
  isItemAt(index: number, indent: number): boolean {
    const start = this.starts[index] as number;
    const end = this.ends[index] as number;
    const dash = start + indent;
    if (dash >= end || this.text.charCodeAt(dash) !== DASH) return false;
    for (let at = start; at < dash; at++) if (this.text.charCodeAt(at) !== SPACE) return false;
    return dash + 1 === end || this.text.charCodeAt(dash + 1) === SPACE;
  }

  /** The text of lines [from, to), with the newline after each. */
  slice(from: number, to: number): string {
    if (from >= to) return '';
    return `${this.text.slice(this.starts[from], this.ends[to - 1])}\n`;
  }

  line(index: number): string {
    return this.text.slice(this.starts[index], this.ends[index]);
  }
}

/** What follows a key's colon says "the value is on the next lines" (nothing, or a comment). */
function opensBlock(rest: string | undefined): boolean {
  return rest === undefined || rest.trim() === '' || rest.trimStart().startsWith('#');
}

function split(text: string): Split | undefined {
  const lines = new Lines(text);
  const skeleton: string[] = [];
  const sections: Section[] = [];
  const keys = new Set<string>();
  let index = 0;
  while (index < lines.length) {
    if (lines.isBlankOrComment(index)) {
      skeleton.push(lines.slice(index, index + 1));
      index += 1;
      continue;
    }
    const match = TOP_LEVEL_KEY.exec(lines.line(index));
    // Anything else at column 0 (a sequence, flow style, a quoted or complex key, `---`,
    // a directive) or an indented line outside a key: not the simple shape.
    if (!match) return undefined;
    const key = match[1] as string;
    if (keys.has(key) || key === '__proto__') return undefined;
    keys.add(key);
    const keyLine = index;
    index += 1;
    // The key's lines: up to the next line at column 0 that is not a comment.
    const bodyStart = index;
    while (index < lines.length && (lines.depth(index) > 0 || lines.isBlankOrComment(index))) {
      index += 1;
    }
    let first = bodyStart;
    while (first < index && lines.isBlankOrComment(first)) first += 1;
    const indent = first < index ? lines.depth(first) : 0;
    if (!opensBlock(match[2]) || first === index || !lines.isItemAt(first, indent)) {
      skeleton.push(lines.slice(keyLine, index));
      continue;
    }
    // Comments before the first item stay with the key.
    skeleton.push(lines.slice(keyLine, first));
    const items: string[] = [];
    let itemStart = first;
    for (let line = first + 1; line < index; line++) {
      if (lines.isItemAt(line, indent)) {
        items.push(lines.slice(itemStart, line));
        itemStart = line;
      } else if (!lines.isBlankOrComment(line) && lines.depth(line) <= indent) {
        // Content must sit deeper than the dashes; otherwise the split could misread it.
        return undefined;
      }
    }
    items.push(lines.slice(itemStart, index));
    sections.push({ key, items });
  }
  return { skeleton: skeleton.join(''), sections };
}

const NOT_SIMPLE = Symbol('not simple');

/** The data of a piece of YAML read on its own, or NOT_SIMPLE. */
function readPiece(text: string): unknown {
  // An item's piece is a list of one, a level less deep than the item in the config: a
  // piece near the limit is left to the whole parse, which refuses what is too deep.
  const parsed = parseDocumentWithin(text, MAX_NESTING_DEPTH - 1);
  if (!('document' in parsed)) return NOT_SIMPLE;
  const { document } = parsed;
  if (document.errors.length > 0) return NOT_SIMPLE;
  // An alias could name an anchor in another piece; `&` or `*` in the text may be one.
  if ((text.includes('&') || text.includes('*')) && hasAnchorsOrAliases(document)) {
    return NOT_SIMPLE;
  }
  return deepFreeze(document.toJS({ maxAliasCount: YAML_PARSE_OPTIONS.maxAliasCount }));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Reads config texts as data, keeping the data of every piece (the skeleton and each item)
 * read for the last two texts: a save compares the edited text with the saved one, and the
 * next save's saved text is mostly the same pieces.
 */
export class ChunkedConfigReader {
  private current = new Map<string, unknown>();
  private previous = new Map<string, unknown>();
  /** The last texts and their data: a save's text is the next edit's base. */
  private recent: {
    readonly text: string;
    readonly result: { readonly data: unknown } | undefined;
  }[] = [];

  /** The text as data, as `parseConfig(text).document.toJS()` gives it; or undefined. */
  dataOf(input: string): { readonly data: unknown } | undefined {
    const text = normalizeLineEnds(input);
    const known = this.recent.find((entry) => entry.text === text);
    if (known) return known.result;
    const result = this.read(text);
    this.recent = [{ text, result }, ...this.recent.slice(0, 1)];
    return result;
  }

  private read(text: string): { readonly data: unknown } | undefined {
    const pieces = split(text);
    if (!pieces) return undefined;
    const used = new Map<string, unknown>();
    const read = (piece: string): unknown => {
      let data = used.get(piece);
      if (data === undefined) {
        data = this.current.has(piece)
          ? this.current.get(piece)
          : this.previous.has(piece)
            ? this.previous.get(piece)
            : readPiece(piece);
        used.set(piece, data);
      }
      return data;
    };
    const result = this.assemble(pieces, read);
    this.previous = this.current;
    this.current = used;
    return result;
  }

  private assemble(
    { skeleton, sections }: Split,
    read: (piece: string) => unknown,
  ): { readonly data: unknown } | undefined {
    const top = read(skeleton);
    if (top === NOT_SIMPLE) return undefined;
    if (sections.length === 0) return { data: top ?? null };
    if (typeof top !== 'object' || top === null || Array.isArray(top)) return undefined;
    const data: Record<string, unknown> = { ...top };
    for (const { key, items } of sections) {
      // The skeleton holds the key with nothing after it: null, in its place among the keys.
      if (!Object.hasOwn(data, key) || data[key] !== null) return undefined;
      const values: unknown[] = [];
      for (const item of items) {
        const value = read(item);
        if (value === NOT_SIMPLE || !Array.isArray(value) || value.length !== 1) return undefined;
        values.push(value[0]);
      }
      data[key] = Object.freeze(values);
    }
    return { data: Object.freeze(data) };
  }
}
