/**
 * YAML text -> a document that keeps comments and source ranges.
 *
 * Everything downstream (validation positions, operations applied in place, stringifying
 * with untouched comments intact) works on the `yaml` package's Document. Positions are
 * offsets into `text`, which is the input with `\n` line ends; as JavaScript string
 * offsets they count UTF-16 code units, which is what Monaco and the report use.
 */
import { isDocument, LineCounter, parseDocument, type Document } from 'yaml';
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

/** Parses config text. Never throws: a document the parser cannot build becomes an issue. */
export function parseConfig(input: string): ParsedConfig {
  const text = normalizeLineEnds(input);
  const lineCounter = new LineCounter();
  try {
    const document = parseDocument(text, { ...YAML_PARSE_OPTIONS, lineCounter });
    if (!isDocument(document)) throw new Error('the YAML parser returned no document');
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
    // The parser recurses per nesting level: absurdly deep input can exhaust the stack.
    const reason = error instanceof RangeError ? 'the document nests too deeply' : String(error);
    const empty = parseDocument('', { ...YAML_PARSE_OPTIONS, lineCounter: new LineCounter() });
    return {
      text,
      document: empty,
      lineCounter,
      syntaxIssues: [
        {
          code: 'yaml.syntax',
          severity: 'error',
          message: `The YAML cannot be read: ${reason}`,
          path: '',
          line: 1,
          column: 1,
          length: 0,
        },
      ],
    };
  }
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
