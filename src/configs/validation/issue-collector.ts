/**
 * Gathers issues while rules run, then hands them out sorted by position with at most one
 * issue per (code, path) (docs/config.md).
 */
import type { Severity, ValidationIssue } from '../../contract/validation';
import { toPointer, type PathSegment } from '../json-pointer';
import { positionAt, type ParsedConfig } from '../parse';

export type IssueRange = readonly [start: number, end: number];

/** An issue's path as a JSON pointer, and its key: one issue per (code, path) is kept. */
export function issueIdentity(
  code: string,
  path: readonly PathSegment[] | string,
): { pointer: string; key: string } {
  const pointer = typeof path === 'string' ? path : toPointer(path);
  return { pointer, key: `${code}\u0000${pointer}` };
}

/** What a rule found: a code, at a path, over a range of the text (if it has one). */
export type AddIssue = (
  code: string,
  severity: Severity,
  message: string,
  path: readonly PathSegment[] | string,
  range: IssueRange | undefined,
) => void;

/** Where rules put what they find. */
export interface IssueSink {
  readonly add: AddIssue;
}

export class IssueCollector implements IssueSink {
  private readonly byKey = new Map<string, ValidationIssue>();

  constructor(private readonly parsed: ParsedConfig) {}

  readonly add: AddIssue = (code, severity, message, path, range) => {
    const { pointer, key } = issueIdentity(code, path);
    if (this.byKey.has(key)) return;
    const [start, end] = range ?? [0, 0];
    this.byKey.set(key, {
      code,
      severity,
      message,
      path: pointer,
      ...positionAt(this.parsed.text, this.parsed.lineCounter, start, end),
    });
  };

  addIssue(issue: ValidationIssue): void {
    const { key } = issueIdentity(issue.code, issue.path);
    if (!this.byKey.has(key)) this.byKey.set(key, issue);
  }

  issues(): ValidationIssue[] {
    return [...this.byKey.values()].sort(compareIssues);
  }
}

/** Position first; then errors before warnings, then code and path, so the order is total. */
export function compareIssues(a: ValidationIssue, b: ValidationIssue): number {
  return (
    a.line - b.line ||
    a.column - b.column ||
    severityRank(a) - severityRank(b) ||
    a.code.localeCompare(b.code) ||
    a.path.localeCompare(b.path) ||
    a.length - b.length
  );
}

function severityRank(issue: ValidationIssue): number {
  return issue.severity === 'warning' ? 1 : 0;
}
