import { useId } from 'react';
import type { EditorOperationsResult } from '../../../../configs';
import { actionKeyOf, itemsOf, type Operation } from '../../../../contract/operations';
import type { ValidationIssue } from '../../../../contract/validation';
import { Spinner } from '../../../components/spinner';

export const NOTHING_TO_SAVE = 'Nothing to save: the text is as it was saved.';
export const TEXT_ONLY =
  'Only comments or formatting changed: Save draft posts your text as you typed it (edit_text).';
const TYPED_TEXT = 'and your text as you typed it, comments and formatting included.';

interface OperationsPanelProps {
  id: string;
  /** null while they are being worked out. */
  result: EditorOperationsResult | null;
  /** The text is the saved text, to the character. */
  identical: boolean;
  /** Why they could not be worked out, in words. */
  failure: string | null;
  /** The last save made on this page, each operation with the issues it caused; null: none. */
  lastSave: {
    readonly operations: readonly Operation[];
    readonly issues: readonly (readonly { index: number; issue: ValidationIssue }[])[];
  } | null;
  /** Selects a report issue, as the Problems panel does. */
  onChooseIssue: (index: number) => void;
}

function LastSave({
  lastSave,
  onChooseIssue,
}: Pick<OperationsPanelProps, 'onChooseIssue'> & {
  lastSave: NonNullable<OperationsPanelProps['lastSave']>;
}) {
  return (
    <>
      <h3>The last save</h3>
      <ol className="operation-list">
        {lastSave.operations.map((operation, index) => {
          const issues = lastSave.issues[index] ?? [];
          return (
            <li key={index}>
              <code className="operation-action">{actionKeyOf(operation)}</code>{' '}
              {actionKeyOf(operation) === 'edit_text'
                ? 'your text as you typed it'
                : itemsOf(operation)
                    .map((item) => (typeof item.id === 'string' ? item.id : String(item.path)))
                    .join(', ')}
              <p>
                {issues.length === 0
                  ? 'Caused no issues.'
                  : `Caused ${issues.length === 1 ? '1 issue' : `${issues.length} issues`}:`}
              </p>
              {issues.length > 0 && (
                <ul className="problem-list">
                  {issues.map(({ index: issueIndex, issue }) => (
                    <li key={issueIndex}>
                      <button
                        type="button"
                        className="problem-button"
                        onClick={() => onChooseIssue(issueIndex)}
                      >
                        {`${issue.line}:${issue.column} ${issue.message}`}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}

/**
 * What Save draft would post: the edit as operations (docs/config.md, From editor text to
 * operations).
 */
export function OperationsPanel({
  id,
  result,
  identical,
  failure,
  lastSave,
  onChooseIssue,
}: OperationsPanelProps) {
  const titleId = useId();
  return (
    <section
      id={id}
      className="card operations"
      aria-labelledby={titleId}
      aria-busy={(result === null && failure === null) || undefined}
    >
      <h2 id={titleId}>Operations</h2>
      {failure !== null ? (
        <p role="alert" className="alert alert-error">
          {failure}
        </p>
      ) : result === null ? (
        <Spinner label="Working out the operations…" />
      ) : result.status === 'syntax_error' ? (
        <>
          <p>The text does not parse, so it cannot become operations:</p>
          <ul>
            {result.issues.map((issue, index) => (
              <li key={index}>{`${issue.line}:${issue.column} ${issue.message}`}</li>
            ))}
          </ul>
        </>
      ) : result.status === 'unchanged' ? (
        <p>{identical ? 'No changes yet.' : TEXT_ONLY}</p>
      ) : (
        <>
          <p>
            Save draft posts{' '}
            {result.operations.length === 1
              ? '1 operation'
              : `${result.operations.length} operations`}
            :
          </p>
          <ol className="operation-list">
            {result.operations.map((operation, index) => (
              <li key={index}>
                <code className="operation-action">{actionKeyOf(operation)}</code>
                <pre className="operation-items">{JSON.stringify(itemsOf(operation), null, 2)}</pre>
              </li>
            ))}
          </ol>
          <p>
            <code className="operation-action">edit_text</code> {TYPED_TEXT}
          </p>
        </>
      )}
      {lastSave && <LastSave lastSave={lastSave} onChooseIssue={onChooseIssue} />}
    </section>
  );
}
