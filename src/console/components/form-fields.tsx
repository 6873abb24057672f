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

interface FieldIds {
  id: string;
  hintId: string;
  errorId: string;
  /** For the control: its hint and error, and whether it is invalid. */
  control: { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };
}

function useFieldIds({ hint, error }: Pick<FieldProps, 'hint' | 'error'>): FieldIds {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return {
    id,
    hintId,
    errorId,
    control: {
      id,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': describedBy(hint !== undefined && hintId, error && errorId),
    },
  };
}

/** Label, hint, the control (children) and its error, in that order. */
function FieldFrame({
  label,
  hint,
  error,
  ids,
  className,
  children,
}: FieldProps & { ids: FieldIds; className?: string | undefined; children: ReactNode }) {
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label htmlFor={ids.id}>{label}</label>
      {hint && (
        <p id={ids.hintId} className="field-hint">
          {hint}
        </p>
      )}
      {children}
      <FieldError id={ids.errorId} message={error} />
    </div>
  );
}

type TextFieldProps = FieldProps &
  Omit<ComponentProps<'input'>, 'id'> & {
    /** Controls drawn after the input, inside the field row (e.g. a show/hide button). */
    after?: ReactNode;
  };

export function TextField({ label, hint, error, after, className, ...input }: TextFieldProps) {
  const ids = useFieldIds({ hint, error });
  return (
    <FieldFrame label={label} hint={hint} error={error} ids={ids} className={className}>
      <div className="field-row">
        <input {...input} {...ids.control} />
        {after}
      </div>
    </FieldFrame>
  );
}

type TextAreaFieldProps = FieldProps & Omit<ComponentProps<'textarea'>, 'id'>;

export function TextAreaField({ label, hint, error, className, ...textarea }: TextAreaFieldProps) {
  const ids = useFieldIds({ hint, error });
  return (
    <FieldFrame label={label} hint={hint} error={error} ids={ids} className={className}>
      <textarea {...textarea} {...ids.control} />
    </FieldFrame>
  );
}

type SelectFieldProps = FieldProps & Omit<ComponentProps<'select'>, 'id'>;

/** A labelled select; its options are the children. */
export function SelectField({ label, hint, error, className, ...select }: SelectFieldProps) {
  const ids = useFieldIds({ hint, error });
  return (
    <FieldFrame label={label} hint={hint} error={error} ids={ids} className={className}>
      <select {...select} {...ids.control} />
    </FieldFrame>
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
