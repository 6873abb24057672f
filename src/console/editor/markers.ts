/**
 * Validation issues -> editor markers. An issue says where it starts (1-based line, column
 * in UTF-16 code units, as Monaco counts) and how many UTF-16 code units it covers, which
 * may run over line ends; the end is found through offsets, so such lengths land right.
 */
import type { ValidationIssue } from '../../contract/validation';
import type {
  EditorMarker,
  OffsetRange,
  PositionModel,
  TextPosition,
  TextRange,
} from './editor-types';

type IssuePlace = Pick<ValidationIssue, 'line' | 'column' | 'length'>;

/** The range an issue covers in the model's text. */
export function issueRange(model: PositionModel, issue: IssuePlace): TextRange {
  const startOffset = model.getOffsetAt({ lineNumber: issue.line, column: issue.column });
  const start = model.getPositionAt(startOffset);
  const end = model.getPositionAt(startOffset + Math.max(0, issue.length));
  return {
    startLineNumber: start.lineNumber,
    startColumn: start.column,
    endLineNumber: end.lineNumber,
    endColumn: end.column,
  };
}

/** One marker per issue; a report without severities (a seed-only server) means errors. */
export function issueToMarker(model: PositionModel, issue: ValidationIssue): EditorMarker {
  return {
    ...issueRange(model, issue),
    message: issue.message,
    severity: issue.severity ?? 'error',
    code: issue.code,
  };
}

/** The whole lines an offset range touches (for highlighting what a save changed). */
export function lineRange(model: PositionModel, range: OffsetRange): TextRange {
  const start = model.getPositionAt(range.start);
  // A node's end offset sits just past its last character: count the line it ends on.
  const end = model.getPositionAt(Math.max(range.start, range.end - 1));
  return {
    startLineNumber: start.lineNumber,
    startColumn: 1,
    endLineNumber: end.lineNumber,
    endColumn: 1,
  };
}

/**
 * Offsets and positions of a plain text, as a Monaco model with `\n` line ends computes
 * them (same clamping). The page uses it where there is no model (tests, the fake editor).
 */
export function textPositions(text: string): PositionModel {
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    lineStarts.push(index + 1);
  }
  const lineLength = (line: number): number => {
    const start = lineStarts[line - 1] ?? 0;
    const next = lineStarts[line];
    return (next === undefined ? text.length : next - 1) - start;
  };
  return {
    getOffsetAt({ lineNumber, column }: TextPosition): number {
      const line = Math.min(Math.max(1, lineNumber), lineStarts.length);
      const col = Math.min(Math.max(1, column), lineLength(line) + 1);
      return (lineStarts[line - 1] ?? 0) + col - 1;
    },
    getPositionAt(offset: number): TextPosition {
      const clamped = Math.min(Math.max(0, offset), text.length);
      // The last line start at or before the offset (binary search).
      let low = 0;
      let high = lineStarts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if ((lineStarts[middle] ?? 0) <= clamped) low = middle;
        else high = middle - 1;
      }
      return { lineNumber: low + 1, column: clamped - (lineStarts[low] ?? 0) + 1 };
    },
  };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** "2 errors, 1 warning", "1 warning", or "No problems". */
export function describeIssueCounts(errors: number, warnings: number): string {
  const parts = [
    ...(errors > 0 ? [plural(errors, 'error')] : []),
    ...(warnings > 0 ? [plural(warnings, 'warning')] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : 'No problems';
}

/** Where a marker lies, and who raised it (monaco-yaml's `source`). */
export interface PlacedMarker extends TextRange {
  source?: string | undefined;
}

/** Whole lines, first to last (1-based, inclusive). */
export interface LineSpan {
  startLineNumber: number;
  endLineNumber: number;
}

/** monaco-yaml's source for what its parser finds (schema checks name their schema). */
export const SYNTAX_SOURCE = 'YAML';

function before(lineA: number, columnA: number, lineB: number, columnB: number): boolean {
  return lineA < lineB || (lineA === lineB && columnA <= columnB);
}

function overlaps(a: TextRange, b: TextRange): boolean {
  return (
    before(a.startLineNumber, a.startColumn, b.endLineNumber, b.endColumn) &&
    before(b.startLineNumber, b.startColumn, a.endLineNumber, a.endColumn)
  );
}

/**
 * The editor's instant checks that stay beside the server's markers. The server's report is
 * the truth for the text it judged: a schema check stays only on lines edited since, and
 * never where a server issue lies; what the parser finds (syntax) always stays.
 */
export function instantMarkersToKeep<Marker extends PlacedMarker>(
  instant: readonly Marker[],
  server: readonly TextRange[],
  editedSince: readonly LineSpan[],
): Marker[] {
  return instant.filter(
    (marker) =>
      marker.source === SYNTAX_SOURCE ||
      (editedSince.some(
        (span) =>
          span.startLineNumber <= marker.endLineNumber &&
          marker.startLineNumber <= span.endLineNumber,
      ) &&
        !server.some((range) => overlaps(range, marker))),
  );
}
