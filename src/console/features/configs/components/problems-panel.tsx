import { useId } from 'react';
import type { ValidationIssue, ValidationReport } from '../../../../contract/validation';
import { describeIssueCounts } from '../../../editor/markers';

interface ProblemsPanelProps {
  report: ValidationReport;
  /** Moves the cursor to the issue and selects its range. */
  onChoose: (index: number, issue: ValidationIssue) => void;
}

/** The saved config's issues: counts, then one button per issue in the report's order. */
export function ProblemsPanel({ report, onChoose }: ProblemsPanelProps) {
  const titleId = useId();
  return (
    <section className="card problems" aria-labelledby={titleId}>
      <h2 id={titleId}>Problems</h2>
      <p className="problem-counts">
        {describeIssueCounts(report.error_count, report.warning_count)}
      </p>
      {report.issues.length > 0 && (
        <ul className="problem-list">
          {report.issues.map((issue, index) => {
            const severity = issue.severity ?? 'error';
            return (
              <li key={`${index}-${issue.code}-${issue.path}`} className={`problem-${severity}`}>
                <span className="problem-severity">
                  {severity === 'error' ? 'Error' : 'Warning'}
                </span>
                <button
                  type="button"
                  className="problem-button"
                  onClick={() => onChoose(index, issue)}
                >
                  {`${issue.line}:${issue.column} ${issue.message}`}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
