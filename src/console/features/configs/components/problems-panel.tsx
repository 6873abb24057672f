import { useId } from 'react';
import type { ValidationIssue, ValidationReport } from '../../../../contract/validation';
import { describeIssueCounts } from '../../../editor/markers';
import type { IssueOrigin } from '../editing/issue-origins';
import { SYNTAX_ALERT } from '../editing/use-save-edit';

interface ProblemsPanelProps {
  report: ValidationReport;
  /** The syntax errors of the text being edited: it cannot be saved while there are any. */
  syntaxIssues: readonly ValidationIssue[];
  /** Per report issue, the operation of the save behind it; null before any save here. */
  origins: readonly (IssueOrigin | null)[] | null;
  /** Moves the cursor to the issue and selects its range. */
  onChoose: (index: number, issue: ValidationIssue) => void;
  /** Moves the cursor to the syntax error and selects its range. */
  onChooseSyntax: (issue: ValidationIssue) => void;
}

/** "1 syntax error", then the saved config's counts when it has any. */
function countsOf(report: ValidationReport, syntaxErrors: number): string {
  const counts = describeIssueCounts(report.error_count, report.warning_count);
  if (syntaxErrors === 0) return counts;
  const syntax = `${syntaxErrors} syntax ${syntaxErrors === 1 ? 'error' : 'errors'}`;
  return report.error_count + report.warning_count > 0 ? `${syntax}, ${counts}` : syntax;
}

function ProblemItem({
  kind,
  label,
  issue,
  origin,
  onChoose,
}: {
  kind: string;
  label: string;
  issue: ValidationIssue;
  origin?: IssueOrigin | null | undefined;
  onChoose: () => void;
}) {
  return (
    <li className={`problem-${kind}`}>
      <span className="problem-severity">{label}</span>
      <button type="button" className="problem-button" onClick={onChoose}>
        {`${issue.line}:${issue.column} ${issue.message}`}
      </button>
      {origin && <span className="problem-origin">{`from ${origin.label}`}</span>}
    </li>
  );
}

/**
 * The text's syntax errors (they keep it from being saved), then the saved config's issues:
 * counts, then one button per issue in the report's order.
 */
export function ProblemsPanel({
  report,
  syntaxIssues,
  origins,
  onChoose,
  onChooseSyntax,
}: ProblemsPanelProps) {
  const titleId = useId();
  const issueCount = syntaxIssues.length + report.issues.length;
  return (
    <section className="card problems" aria-labelledby={titleId}>
      <h2 id={titleId}>Problems</h2>
      <p className="problem-counts">{countsOf(report, syntaxIssues.length)}</p>
      {syntaxIssues.length > 0 && <p className="warning-text">{SYNTAX_ALERT}</p>}
      {issueCount > 0 && (
        <ul className="problem-list">
          {syntaxIssues.map((issue, index) => (
            <ProblemItem
              key={`syntax-${index}-${issue.line}:${issue.column}`}
              kind="error problem-syntax"
              label="Syntax error"
              issue={issue}
              onChoose={() => onChooseSyntax(issue)}
            />
          ))}
          {report.issues.map((issue, index) => {
            const severity = issue.severity ?? 'error';
            return (
              <ProblemItem
                key={`${index}-${issue.code}-${issue.path}`}
                kind={severity}
                label={severity === 'error' ? 'Error' : 'Warning'}
                issue={issue}
                origin={origins?.[index]}
                onChoose={() => onChoose(index, issue)}
              />
            );
          })}
        </ul>
      )}
    </section>
  );
}
