/**
 * What every lifecycle step's dialog has: where the result is published, the step's own
 * fields, an optional version label, why the server refused (if it did), and the buttons.
 */
import { useRef, type FormEventHandler, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { MAX_SUMMARY_LENGTH } from '../../../../contract/config-edit';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { TextField } from '../../../components/form-fields';
import type { AbTestSource } from '../api/get-ab-test-source';
import { RequestProblem } from './request-problem';

interface StepDialogFrameProps {
  open: boolean;
  title: string;
  source: AbTestSource;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  confirmLabel: string;
  confirmVariant?: 'primary' | 'danger';
  /** The version label field, registered with the step's form. */
  summary: UseFormRegisterReturn<'summary'>;
  summaryError: string | undefined;
  /** The server's example of the label it writes when none is given. */
  defaultLabel: string;
  pending: boolean;
  error: unknown;
  failure: string;
  /** Focus Cancel first (steps without fields of their own, where Enter must be harmless). */
  focusCancel?: boolean;
  wide?: boolean;
  children?: ReactNode;
}

/** Where a step's result goes, in words: a step always publishes and goes live. */
export function publishedWhere(source: AbTestSource): string {
  return source.config.kind === 'draft'
    ? `This publishes the draft “${source.config.label}” with this change and makes it live; the draft is then gone.`
    : `This publishes a new version of the live config “${source.config.label}” with this change and makes it live.`;
}

export function StepDialogFrame({
  open,
  title,
  source,
  onClose,
  onSubmit,
  confirmLabel,
  confirmVariant = 'primary',
  summary,
  summaryError,
  defaultLabel,
  pending,
  error,
  failure,
  focusCancel = false,
  wide = false,
  children,
}: StepDialogFrameProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      initialFocus={focusCancel ? cancel : undefined}
      wide={wide}
    >
      <form className="form" noValidate onSubmit={onSubmit}>
        <p>{publishedWhere(source)}</p>
        {children}
        <TextField
          label="Version label"
          hint={`Optional. Empty: “${defaultLabel}”.`}
          autoComplete="off"
          maxLength={MAX_SUMMARY_LENGTH}
          error={summaryError}
          {...summary}
        />
        {error != null && <RequestProblem failure={failure} error={error} />}
        <DialogActions
          confirmLabel={confirmLabel}
          confirmVariant={confirmVariant}
          onCancel={onClose}
          pending={pending}
          cancelRef={cancel}
        />
      </form>
    </Dialog>
  );
}
