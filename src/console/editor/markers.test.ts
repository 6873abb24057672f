import { describe, expect, it } from 'vitest';
import { validateConfigText } from '../../configs';
import type { ValidationIssue } from '../../contract/validation';
import {
  describeIssueCounts,
  issueRange,
  instantMarkersToKeep,
  issueToMarker,
  lineRange,
  SYNTAX_SOURCE,
  textPositions,
} from './markers';

function issue(line: number, column: number, length: number): ValidationIssue {
  return { code: 'test', message: 'test', path: '', line, column, length, severity: 'error' };
}

/** The text a range covers, read back through offsets. */
function textIn(text: string, range: ReturnType<typeof issueRange>): string {
  const positions = textPositions(text);
  const start = positions.getOffsetAt({
    lineNumber: range.startLineNumber,
    column: range.startColumn,
  });
  const end = positions.getOffsetAt({ lineNumber: range.endLineNumber, column: range.endColumn });
  return text.slice(start, end);
}

describe('issue -> marker range', () => {
  it('places an issue at its line and column', () => {
    const text = 'apps:\n  - id: a\n    platform: desktop\n';
    const range = issueRange(textPositions(text), issue(3, 15, 7));
    expect(range).toEqual({
      startLineNumber: 3,
      startColumn: 15,
      endLineNumber: 3,
      endColumn: 22,
    });
    expect(textIn(text, range)).toBe('desktop');
  });

  it('counts columns in UTF-16 code units: an emoji before the issue takes two', () => {
    const text = 'apps:\n  - {name: "🚀 go", platform: desktop}\n';
    // '  - {name: "🚀 go", platform: ' is 30 UTF-16 code units (the rocket counts two), so
    // desktop starts at column 31, not 30 as a count of characters would say.
    const line = text.split('\n')[1] ?? '';
    const column = line.indexOf('desktop') + 1;
    expect(column).toBe(31);
    expect([...line.slice(0, column - 1)].length).toBe(29);
    const range = issueRange(textPositions(text), issue(2, column, 7));
    expect(range).toMatchObject({ startLineNumber: 2, startColumn: 31, endColumn: 38 });
    expect(textIn(text, range)).toBe('desktop');
  });

  it('ends a length that crosses line ends on the right line and column', () => {
    const text = 'apps:\n  - id: x\n    settings:\n      - a\n      - b\nab_tests: []\n';
    // From "- a" to just after "- b": 3 + 1 (\n) + 6 + 3 = 13 code units.
    const range = issueRange(textPositions(text), issue(4, 7, 13));
    expect(range).toEqual({ startLineNumber: 4, startColumn: 7, endLineNumber: 5, endColumn: 10 });
    expect(textIn(text, range)).toBe('- a\n      - b');
  });

  it('lands exactly on what the validator reports, emoji and multi-line included', () => {
    const text = [
      'apps:',
      '  - {id: rocket, name: "🚀🚀", platform: desktop}',
      '  - id: listy',
      '    name: Listy',
      '    platform: web',
      '    settings:',
      '      - a',
      '      - b',
      '',
    ].join('\n');
    const report = validateConfigText(text, { type: 'draft', name: 'test' });
    const positions = textPositions(text);
    const found = report.issues.map((each) => [
      each.code,
      textIn(text, issueRange(positions, each)),
    ]);
    expect(found).toContainEqual(['schema.enum', 'desktop']);
    expect(found.find(([code]) => code === 'schema.type')?.[1]).toMatch(/^- a\n {6}- b/);
  });

  it('clamps positions past the text like Monaco does', () => {
    const text = 'a: 1\nb: 2';
    expect(issueRange(textPositions(text), issue(9, 1, 3))).toEqual({
      startLineNumber: 2,
      startColumn: 1,
      endLineNumber: 2,
      endColumn: 4,
    });
    expect(issueRange(textPositions(text), issue(1, 40, 2))).toEqual({
      startLineNumber: 1,
      startColumn: 5,
      endLineNumber: 2,
      endColumn: 2,
    });
  });

  it('treats a missing severity as an error', () => {
    const { severity: _severity, ...bare } = issue(1, 1, 1);
    expect(issueToMarker(textPositions('a: 1'), bare).severity).toBe('error');
    expect(issueToMarker(textPositions('a: 1'), { ...bare, severity: 'warning' }).severity).toBe(
      'warning',
    );
  });

  it('covers whole lines for a highlighted node', () => {
    const text = 'apps:\n  - id: a\n    name: A\nab_tests: []\n';
    const start = text.indexOf('id: a');
    const end = text.indexOf('ab_tests');
    expect(lineRange(textPositions(text), { start, end })).toEqual({
      startLineNumber: 2,
      startColumn: 1,
      endLineNumber: 3,
      endColumn: 1,
    });
  });
});

describe('issue counts', () => {
  it('reads like the contract', () => {
    expect(describeIssueCounts(0, 0)).toBe('No problems');
    expect(describeIssueCounts(2, 1)).toBe('2 errors, 1 warning');
    expect(describeIssueCounts(1, 0)).toBe('1 error');
    expect(describeIssueCounts(0, 3)).toBe('3 warnings');
  });
});

describe('instant checks beside the server markers', () => {
  const SCHEMA = 'yaml-schema: config';
  const at = (line: number, start: number, end: number, source = SCHEMA) => ({
    startLineNumber: line,
    startColumn: start,
    endLineNumber: line,
    endColumn: end,
    source,
  });
  // `platform: desktop` on line 3, judged by the server (schema.enum on desktop).
  const server = [at(3, 15, 22)];
  const desktop = at(3, 15, 22);

  it('drops a schema check the server has already judged on an unchanged line', () => {
    expect(instantMarkersToKeep([desktop], server, [])).toEqual([]);
  });

  it('never restates a server issue, even on a line edited since', () => {
    const edited = [{ startLineNumber: 3, endLineNumber: 3 }];
    expect(instantMarkersToKeep([desktop], server, edited)).toEqual([]);
  });

  it('keeps a schema check on a line edited since the report', () => {
    const toaster = at(7, 15, 22);
    const edited = [{ startLineNumber: 6, endLineNumber: 7 }];
    expect(instantMarkersToKeep([desktop, toaster], server, edited)).toEqual([toaster]);
  });

  it('drops a schema check on a line nobody edited, even where the server found nothing', () => {
    const elsewhere = at(9, 5, 8);
    expect(
      instantMarkersToKeep([elsewhere], server, [{ startLineNumber: 3, endLineNumber: 3 }]),
    ).toEqual([]);
  });

  it('always keeps syntax errors', () => {
    const syntax = at(3, 15, 22, SYNTAX_SOURCE);
    expect(instantMarkersToKeep([syntax], server, [])).toEqual([syntax]);
  });
});
