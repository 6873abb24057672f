/**
 * Labelled form controls that carry their hint and error: `aria-describedby` points at both,
 * `aria-invalid` marks the error. They take react-hook-form's `register(...)` spread.
 */
import { useId, type ComponentProps, type ReactNode } from 'react';

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
}

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const list = ids.filter(Boolean).join(' ');
  return list || undefined;
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="field-error">
      {message}
    </p>
  ) : null;
}

type TextFieldProps = FieldProps &
  Omit<ComponentProps<'input'>, 'id'> & {
    /** Controls drawn after the input, inside the field row (e.g. a show/hide button). */
    after?: ReactNode;
  };

export function TextField({ label, hint, error, after, className, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      <div className="field-row">
        <input
          {...input}
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(hint !== undefined && hintId, error && errorId)}
        />
        {after}
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

type CheckboxFieldProps = Omit<ComponentProps<'input'>, 'id' | 'type'> & {
  label: ReactNode;
  hint?: ReactNode;
};

export function CheckboxField({ label, hint, className, ...input }: CheckboxFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={['checkbox', className].filter(Boolean).join(' ')}>
      <input
        {...input}
        id={id}
        type="checkbox"
        aria-describedby={hint !== undefined ? hintId : undefined}
      />
      <label htmlFor={id}>{label}</label>
      {hint !== undefined && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
