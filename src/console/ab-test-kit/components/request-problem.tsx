/**
 * Why a request was refused, at the form that sent it: the problem in words, then what the
 * server listed (the request's field errors, the validation report that made a step fail).
 */
import type { ValidationIssue } from '../../../contract/validation';
import { ApiProblem, describeError } from '../../lib/api-client';
import { describeIssueCounts } from '../../editor/markers';

interface RequestProblemProps {
  /** What did not happen, e.g. "The test was not started." */
  failure: string;
  error: unknown;
}

export function describeIssue(issue: ValidationIssue): string {
  const where = issue.path === '' ? 'the whole config' : issue.path;
  return `${issue.severity === 'warning' ? 'Warning' : 'Error'} at line ${issue.line}, column ${issue.column} (${where}): ${issue.message}`;
}

export function RequestProblem({ failure, error }: RequestProblemProps) {
  const problem = error instanceof ApiProblem ? error : null;
  const report = problem?.validation;
  const issues = report?.issues.filter((issue) => issue.severity !== 'warning') ?? [];
  return (
    <div role="alert" className="alert alert-error">
      <p>
        {failure} {describeError(error)}
      </p>
      {report && (
        <>
          <p>
            The result would have {describeIssueCounts(report.error_count, report.warning_count)}
            {issues.length > 0 ? ':' : '.'}
          </p>
          <ul className="issue-list">
            {issues.map((issue) => (
              <li key={`${issue.code} ${issue.path}`}>{describeIssue(issue)}</li>
            ))}
          </ul>
        </>
      )}
      {problem && problem.errors.length > 0 && (
        <ul className="issue-list">
          {problem.errors.map(({ path, message }) => (
            <li key={`${path} ${message}`}>
              {path}: {message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
