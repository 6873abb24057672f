import { Suspense, useId, useRef, useState } from 'react';
import type { EditConflict } from '../../../../contract/problem';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Spinner } from '../../../components/spinner';
import { DiffView } from '../../../editor/lazy-monaco';
import { formatAbsolute } from '../../../lib/time';
import { ErrorAlert } from '../../../components/error-alert';

export type MergeChoice = 'theirs' | 'mine';

export const MERGE_VIEW_TITLE = 'Your edit and a newer one changed the same fields';

/** A value as the person reads it; absent: the field is not there on that side. */
function shown(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value, null, 2);
}

/** Values past this, or on several lines, are compared in Monaco's diff editor. */
const SHORT_VALUE = 60;

function isLong(...texts: (string | null)[]): boolean {
  return texts.some((text) => text !== null && (text.includes('\n') || text.length > SHORT_VALUE));
}

function Value({ text }: { text: string | null }) {
  return text === null ? <em>(not there)</em> : <pre className="merge-value">{text}</pre>;
}

function FieldRow({
  field,
  choice,
  onChoose,
  dark,
}: {
  field: EditConflict;
  choice: MergeChoice | undefined;
  onChoose: (choice: MergeChoice) => void;
  dark: boolean;
}) {
  const name = useId();
  const [base, theirs, mine] = [shown(field.base), shown(field.theirs), shown(field.mine)];
  const theirsHeading = `Theirs: ${field.by}, revision ${field.revision}, ${formatAbsolute(field.at)}`;
  return (
    <fieldset className="merge-field">
      <legend>
        <code>{field.path}</code>
      </legend>
      <table>
        <thead>
          <tr>
            <th scope="col">Base</th>
            <th scope="col">{theirsHeading}</th>
            <th scope="col">Yours</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <Value text={base} />
            </td>
            <td>
              <Value text={theirs} />
            </td>
            <td>
              <Value text={mine} />
            </td>
          </tr>
        </tbody>
      </table>
      {isLong(base, theirs, mine) && (
        <Suspense fallback={<Spinner label="Loading the comparison…" />}>
          <DiffView
            original={theirs ?? ''}
            modified={{ text: mine ?? '' }}
            label={`${field.path}: theirs and yours`}
            dark={dark}
            height="12rem"
          />
        </Suspense>
      )}
      <div role="radiogroup" aria-label={`Value of ${field.path}`}>
        <label>
          <input
            type="radio"
            name={name}
            checked={choice === 'theirs'}
            onChange={() => onChoose('theirs')}
          />{' '}
          Keep theirs
        </label>{' '}
        <label>
          <input
            type="radio"
            name={name}
            checked={choice === 'mine'}
            onChange={() => onChoose('mine')}
          />{' '}
          Use mine
        </label>
      </div>
    </fieldset>
  );
}

/**
 * A save answered 409 edit_conflict: each field both edits changed, with its value before
 * either edit, now, and in the person's edit, and a choice per field. Everything else of
 * both edits is kept.
 */
export function MergeView({
  fields,
  pending,
  failure,
  dark,
  onSave,
  onCancel,
}: {
  fields: readonly EditConflict[];
  pending: boolean;
  /** Why the last attempt failed, in words. */
  failure: string | null;
  dark: boolean;
  onSave: (choices: readonly MergeChoice[]) => void;
  onCancel: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  const [choices, setChoices] = useState<readonly (MergeChoice | undefined)[]>(() =>
    fields.map(() => undefined),
  );
  const left = choices.filter((choice) => choice === undefined).length;
  const authors = [...new Set(fields.map((field) => field.by))].join(', ');
  return (
    <Dialog open wide onClose={onCancel} title={MERGE_VIEW_TITLE} initialFocus={cancel}>
      <p>
        {authors} saved a newer version while you were editing. Both edits changed the fields below:
        choose which value to keep for each. Everything else from both edits is kept.
      </p>
      {fields.map((field, index) => (
        <FieldRow
          key={`${field.path}:${index}`}
          field={field}
          dark={dark}
          choice={choices[index]}
          onChoose={(choice) => setChoices(choices.map((was, at) => (at === index ? choice : was)))}
        />
      ))}
      <ErrorAlert>{failure}</ErrorAlert>
      {left > 0 && (
        <p>
          {left === 1 ? '1 field is' : `${left} fields are`} still to choose for. Cancel keeps your
          text in the editor, unsaved.
        </p>
      )}
      <DialogActions
        confirmLabel="Save with these choices"
        confirmVariant="primary"
        confirmDisabled={left > 0}
        onConfirm={() => onSave(choices.map((choice) => choice ?? 'mine'))}
        onCancel={onCancel}
        pending={pending}
        cancelRef={cancel}
      />
    </Dialog>
  );
}
