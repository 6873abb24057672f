/**
 * Validation issues as the config commands print them: the compilers' `FILE:LINE:COLUMN:`
 * form (editors and CI make it clickable), GitHub Actions annotations, or JSON. Lines and
 * columns are 1-based, columns in UTF-16 code units, as the service reports them.
 */
import type { ValidationIssue, ValidationReport } from '../contract/validation';

export const ISSUE_FORMATS = ['text', 'json', 'github'] as const;
export type IssueFormat = (typeof ISSUE_FORMATS)[number];

/** One line: a message that spans lines is joined into one. */
function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ');
}

export function issueLine(file: string, issue: ValidationIssue): string {
  return `${file}:${issue.line}:${issue.column}: ${issue.severity} ${issue.code} ${oneLine(issue.message)}\n`;
}

/** GitHub's workflow-command escaping: the message, then property values (which also escape `:` and `,`). */
const escapeData = (text: string) =>
  text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function githubAnnotation(file: string, issue: ValidationIssue): string {
  return `::${issue.severity} file=${escapeProperty(file)},line=${issue.line},col=${issue.column}::${escapeData(`${issue.code} ${issue.message}`)}\n`;
}

/** One issue as `--format json` prints it (`validate`, `push`). */
export function issueJson({
  line,
  column,
  length,
  severity,
  code,
  message,
  path,
}: ValidationIssue) {
  return { line, column, length, severity, code, message, path };
}
export type IssueJson = ReturnType<typeof issueJson>;

/** What `--format json` prints of one file's report. */
export function reportJson(file: string, report: ValidationReport) {
  return {
    file,
    valid: report.valid,
    error_count: report.error_count,
    warning_count: report.warning_count,
    issues: report.issues.map(issueJson),
  };
}

export function issueLines(
  file: string,
  issues: readonly ValidationIssue[],
  format: Exclude<IssueFormat, 'json'> = 'text',
): string {
  return issues
    .map((issue) => (format === 'github' ? githubAnnotation : issueLine)(file, issue))
    .join('');
}

export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
