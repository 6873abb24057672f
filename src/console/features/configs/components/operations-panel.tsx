import { useId } from 'react';
import type { EditorOperationsResult } from '../../../../configs';
import { actionKeyOf, itemsOf } from '../../../../contract/operations';
import { Spinner } from '../../../components/spinner';

export const NOTHING_TO_SAVE = 'Nothing to save: only comments or formatting changed.';

interface OperationsPanelProps {
  id: string;
  /** null while they are being worked out. */
  result: EditorOperationsResult | null;
  /** The text is the saved text, to the character. */
  identical: boolean;
  /** Why they could not be worked out, in words. */
  failure: string | null;
}

/**
 * What Save draft would post: the edit as operations (docs/config.md, From editor text to
 * operations).
 */
export function OperationsPanel({ id, result, identical, failure }: OperationsPanelProps) {
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
        <p>{identical ? 'No changes yet.' : NOTHING_TO_SAVE}</p>
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
        </>
      )}
    </section>
  );
}
