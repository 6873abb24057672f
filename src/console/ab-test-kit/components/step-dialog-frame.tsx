/**
 * What every lifecycle step's dialog has: where the result is published, the step's own
 * fields, an optional version label, why the server refused (if it did), and the buttons.
 */
import { useRef, type ReactNode } from 'react';
import type { DefaultValues } from 'react-hook-form';
import { MAX_SUMMARY_LENGTH } from '../../../contract/config-edit';
import type { z } from '../../../contract/zod';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { Form, FormTextField } from '../../components/form';
import type { ConfigWithContents } from '../../api/get-config-contents';
import { useTypedConfirmation } from '../../components/type-to-confirm';
import { RequestProblem } from './request-problem';

/** Every step's form has the version label, `summary`. */
interface StepValues {
  summary: string;
}

interface StepDialogFrameProps<Input extends StepValues, Output extends StepValues> {
  open: boolean;
  title: string;
  source: ConfigWithContents;
  onClose: () => void;
  schema: z.ZodMiniType<Output, Input>;
  defaultValues: DefaultValues<Input>;
  onSubmit: (values: Output) => unknown;
  confirmLabel: string;
  confirmVariant?: 'primary' | 'danger';
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
export function publishedWhere(source: ConfigWithContents): string {
  return source.config.kind === 'draft'
    ? `This publishes the draft “${source.config.label}” with this change and makes it live; the draft is then gone.`
    : `This publishes a new version of the live config “${source.config.label}” with this change and makes it live.`;
}

export function StepDialogFrame<Input extends StepValues, Output extends StepValues>({
  open,
  title,
  source,
  onClose,
  schema,
  defaultValues,
  onSubmit,
  confirmLabel,
  confirmVariant = 'primary',
  defaultLabel,
  pending,
  error,
  failure,
  focusCancel = false,
  wide = false,
  children,
}: StepDialogFrameProps<Input, Output>) {
  const cancel = useRef<HTMLButtonElement>(null);
  const typed = useTypedConfirmation(open);
  const close = () => {
    typed.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={title}
      initialFocus={focusCancel ? cancel : undefined}
      wide={wide}
    >
      <Form schema={schema} defaultValues={defaultValues} onSubmit={typed.guard(onSubmit)}>
        <p>{publishedWhere(source)}</p>
        {children}
        <FormTextField
          name="summary"
          label="Version label"
          hint={`Optional. Empty: “${defaultLabel}”.`}
          autoComplete="off"
          maxLength={MAX_SUMMARY_LENGTH}
        />
        {typed.field}
        {typed.alert}
        {error != null && <RequestProblem failure={failure} error={error} />}
        <DialogActions
          confirmLabel={confirmLabel}
          confirmVariant={confirmVariant}
          onCancel={close}
          pending={pending}
          cancelRef={cancel}
        />
      </Form>
    </Dialog>
  );
}
