/**
 * YAML text -> a document that keeps comments and source ranges.
 *
 * Everything downstream (validation positions, operations applied in place, stringifying
 * with untouched comments intact) works on the `yaml` package's Document. Positions are
 * offsets into `text`, which is the input with `\n` line ends; as JavaScript string
 * offsets they count UTF-16 code units, which is what Monaco and the report use.
 */
import {
  Composer,
  CST,
  isDocument,
  LineCounter,
  parseDocument,
  Parser,
  YAMLParseError,
  type Document,
} from 'yaml';
import { MAX_NESTING_DEPTH } from '../contract/limits';
import type { ValidationIssue } from '../contract/validation';

export interface ParsedConfig {
  /** The text that was parsed: the input with CRLF / CR line ends made `\n`, BOM removed. */
  readonly text: string;
  readonly document: Document.Parsed;
  readonly lineCounter: LineCounter;
  /** `yaml.syntax` issues from the parser; when any, the tree is not worth validating. */
  readonly syntaxIssues: readonly ValidationIssue[];
}

/** A config read as plain JSON data, or why it cannot be. */
export type ConfigData =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/**
 * A parsed config as plain data (what the editor's diff compares). Text that does not parse
 * has its syntax issues; a document whose aliases expand too far is refused by `toJS`, and
 * that refusal is reported as a syntax issue of the whole text.
 */
export function configData(parsed: ParsedConfig): ConfigData {
  if (parsed.syntaxIssues.length > 0) return { ok: false, issues: parsed.syntaxIssues };
  try {
    return {
      ok: true,
      data: parsed.document.toJS({ maxAliasCount: YAML_PARSE_OPTIONS.maxAliasCount }) ?? null,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      issues: [
        {
          code: 'yaml.syntax',
          severity: 'error',
          message,
          path: '',
          line: 1,
          column: 1,
          length: 0,
        },
      ],
    };
  }
}

export interface SourcePosition {
  line: number;
  column: number;
  length: number;
}

/** The parser options every part of the project uses, so documents agree. */
export const YAML_PARSE_OPTIONS = {
  version: '1.2',
  // Duplicate keys are reported by validation with a JSON Pointer, not by the parser.
  uniqueKeys: false,
  prettyErrors: false,
  keepSourceTokens: false,
  // A billion-laughs document must not expand without bound when turned into data.
  maxAliasCount: 1000,
} as const;

export function normalizeLineEnds(text: string): string {
  const withoutBom = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return withoutBom.includes('\r') ? withoutBom.replace(/\r\n?/g, '\n') : withoutBom;
}

/**
 * Parses config text. Never throws: a document the parser cannot build becomes an issue,
 * and so does one nesting deeper than MAX_NESTING_DEPTH levels (`yaml.too_deep`), found
 * before the document is built. The document of such text is empty and carries the
 * parser's error, so that nothing edits or writes it in place of the text it could not read.
 */
export function parseConfig(input: string): ParsedConfig {
  const text = normalizeLineEnds(input);
  const lineCounter = new LineCounter();
  try {
    const parsed = parseDocumentWithin(text, MAX_NESTING_DEPTH, lineCounter);
    if ('tooDeepAt' in parsed) {
      const at = parsed.tooDeepAt;
      const message = `The config nests deeper than ${MAX_NESTING_DEPTH} levels, the limit for a config`;
      return unreadable(text, lineCounter, message, [at, at + 1], 'yaml.too_deep');
    }
    const { document } = parsed;
    const syntaxIssues = document.errors.map((error) => {
      const [start, end] = error.pos;
      return {
        code: 'yaml.syntax',
        severity: 'error' as const,
        message: firstLine(error.message),
        path: '',
        ...positionAt(text, lineCounter, start, end),
      };
    });
    return { text, document, lineCounter, syntaxIssues };
  } catch (error) {
    // A last resort: the limit above keeps the parser's recursion short.
    const reason = error instanceof RangeError ? 'the document nests too deeply' : String(error);
    return unreadable(
      text,
      lineCounter,
      `The YAML cannot be read: ${reason}`,
      [0, 0],
      'yaml.syntax',
    );
  }
}

function unreadable(
  text: string,
  lineCounter: LineCounter,
  message: string,
  [start, end]: [number, number],
  code: string,
): ParsedConfig {
  const document = parseDocument('', YAML_PARSE_OPTIONS);
  document.errors.push(new YAMLParseError([start, end], 'RESOURCE_EXHAUSTION', message));
  const issue: ValidationIssue = {
    code,
    severity: 'error',
    message,
    path: '',
    ...positionAt(text, lineCounter, start, end),
  };
  return { text, document, lineCounter, syntaxIssues: [issue] };
}

/**
 * `parseDocument(text, YAML_PARSE_OPTIONS)`, unless the text nests deeper than `limit`
 * levels: then the offset of the first collection past it, and no document. The syntax
 * tree (CST) is built without recursion and measured before the document is built from it
 * (which recurses once per level).
 */
export function parseDocumentWithin(
  text: string,
  limit: number,
  lineCounter?: LineCounter,
): { readonly document: Document.Parsed } | { readonly tooDeepAt: number } {
  const parser = new Parser(lineCounter?.addNewLine);
  const composer = new Composer({ ...YAML_PARSE_OPTIONS });
  let tooDeepAt: number | undefined;
  function* measured(): Generator<CST.Token> {
    for (const token of parser.parse(text)) {
      if (token.type === 'document') tooDeepAt = firstPastLimit(token, limit);
      if (tooDeepAt !== undefined) return;
      yield token;
    }
  }
  // As parseDocument: the first document; a second one is an error.
  let document: Document.Parsed | undefined;
  for (const next of composer.compose(measured(), true, text.length)) {
    if (!document) document = next;
    else {
      document.errors.push(
        new YAMLParseError(
          [next.range[0], next.range[1]],
          'MULTIPLE_DOCS',
          'Source contains multiple documents; please use YAML.parseAllDocuments()',
        ),
      );
      break;
    }
  }
  if (tooDeepAt !== undefined) return { tooDeepAt };
  if (!isDocument(document)) throw new Error('the YAML parser returned no document');
  return { document };
}

/** The offset of the first collection of a CST document nested past `limit`, if any. */
function firstPastLimit(document: CST.Document, limit: number): number | undefined {
  const stack: [CST.Token | null | undefined, number][] = [[document.value, 0]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [token, above] = entry;
    if (!CST.isCollection(token)) continue;
    if (above >= limit) return token.offset;
    const flowList = token.type === 'flow-collection' && token.start.source === '[';
    // Last item first, value before key: the walk meets places in the order of the text.
    for (let index = token.items.length - 1; index >= 0; index--) {
      const item = token.items[index] as CST.CollectionItem;
      // `[a: b]` and `[? a]`: the pair is a mapping of its own in the list, one level more.
      const pair = flowList && (item.key !== undefined || item.sep !== undefined);
      if (pair && above + 1 >= limit) return item.key?.offset ?? token.offset;
      const level = pair ? above + 2 : above + 1;
      stack.push([item.value, level], [item.key, level]);
    }
  }
  return undefined;
}

/** 1-based line and column of `start`, and the length up to `end`, clamped to the text. */
export function positionAt(
  text: string,
  lineCounter: LineCounter,
  start: number,
  end: number,
): SourcePosition {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  const { line, col } = lineCounter.linePos(from);
  return { line, column: col, length: to - from };
}

function firstLine(message: string): string {
  const newline = message.indexOf('\n');
  return newline === -1 ? message : message.slice(0, newline);
}

/**
 * How a config document is written back to text. `yaml`'s defaults would rewrite untouched
 * parts: fold long strings at 80 columns and pad flow collections (`[1, 2]` -> `[ 1, 2 ]`).
 */
export const YAML_STRINGIFY_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

export function stringifyConfig(document: Document): string {
  return document.toString(YAML_STRINGIFY_OPTIONS);
}
