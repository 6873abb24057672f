import { Suspense, useRef, useState } from 'react';
import { z } from '../../../../contract/zod';
import { MAX_SUMMARY_LENGTH } from '../../../../contract/config-edit';
import type { ConfigRecord } from '../../../../contract/configs';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Form, FormTextField } from '../../../components/form';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/api-client';
import { DiffView } from '../../../editor/lazy-monaco';
import { useDarkScheme } from '../../../editor/use-dark-scheme';
import { useTypedConfirmation } from '../../../components/type-to-confirm';
import { usePublishConfig } from '../api/publish-config';

const publishFormSchema = z.object({
  label: z
    .string()
    .check(
      z.trim(),
      z.maxLength(MAX_SUMMARY_LENGTH, `Use at most ${MAX_SUMMARY_LENGTH} characters.`),
    ),
});
type PublishFormInput = z.input<typeof publishFormSchema>;
type PublishFormValues = z.output<typeof publishFormSchema>;

interface PublishDialogProps {
  open: boolean;
  draft: { id: string; label: string };
  /** The saved draft's text and the text of the config it came from (null: unknown). */
  draftText: string;
  baseText: string | null;
  /** The editor holds edits that are not saved: they are not published. */
  unsaved: boolean;
  onClose: () => void;
  onPublished: (published: ConfigRecord) => void;
}

/** "Publish <label>?": the changes against the base, an optional version label. */
export function PublishDialog({
  open,
  draft,
  draftText,
  baseText,
  unsaved,
  onClose,
  onPublished,
}: PublishDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  const dark = useDarkScheme();
  const publish = usePublishConfig();
  const typed = useTypedConfirmation(open);
  // A new form each time the dialog closes: the label typed last time is not kept.
  const [formKey, setFormKey] = useState(0);

  const close = () => {
    publish.reset();
    typed.reset();
    setFormKey((key) => key + 1);
    onClose();
  };

  const onSubmit = (values: PublishFormValues) => {
    publish.mutate(
      { id: draft.id, label: values.label },
      {
        onSuccess: (published) => {
          setFormKey((key) => key + 1);
          onPublished(published);
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title={`Publish ${draft.label}?`}
      initialFocus={cancel}
      wide
    >
      <p>Publishing makes this draft the live config. These are its changes:</p>
      {baseText === null ? (
        <p className="muted">The config this draft came from is not available to compare.</p>
      ) : (
        <Suspense fallback={<Spinner label="Loading the changes…" />}>
          <DiffView
            original={baseText}
            modified={{ text: draftText }}
            label="Changes to publish"
            dark={dark}
            inline
            height="18rem"
          />
        </Suspense>
      )}
      {unsaved && (
        <p className="warning-text">Your unsaved edits are not part of what is published.</p>
      )}
      <Form<PublishFormInput, PublishFormValues>
        key={formKey}
        schema={publishFormSchema}
        defaultValues={{ label: '' }}
        onSubmit={typed.guard(onSubmit)}
      >
        <FormTextField
          name="label"
          label="Version label"
          hint={`Optional. Empty: the draft's label, “${draft.label}”.`}
          autoComplete="off"
          maxLength={MAX_SUMMARY_LENGTH}
        />
        {typed.field}
        {typed.alert}
        {publish.isError && (
          <p role="alert" className="alert alert-error">
            The draft was not published. {describeError(publish.error)}
          </p>
        )}
        <DialogActions
          confirmLabel="Publish"
          confirmVariant="primary"
          onCancel={close}
          pending={publish.isPending}
          cancelRef={cancel}
        />
      </Form>
    </Dialog>
  );
}
