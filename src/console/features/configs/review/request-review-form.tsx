import { useState } from 'react';
import { MAX_REVIEW_BODY_LENGTH, type ReviewState } from '../../../../contract/reviews';
import { z } from '../../../../contract/zod';
import { Button } from '../../../components/button';
import { Form, FormActions, FormCheckboxField, FormTextAreaField } from '../../../components/form';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { useRequestReview } from '../api/reviews';

const requestFormSchema = z.object({
  note: z
    .string()
    .check(
      z.trim(),
      z.maxLength(MAX_REVIEW_BODY_LENGTH, `Use at most ${MAX_REVIEW_BODY_LENGTH} characters.`),
    ),
  publishOnApproval: z.boolean(),
});
type RequestFormInput = z.input<typeof requestFormSchema>;
type RequestFormValues = z.output<typeof requestFormSchema>;

/** "Request review": a button that opens a note and "Publish when approved". */
export function RequestReviewForm({
  configId,
  review,
}: {
  configId: string;
  review: ReviewState | undefined;
}) {
  const [open, setOpen] = useState(false);
  const request = useRequestReview();
  const again = review !== undefined && review.state !== 'none';
  const label = again ? 'Request review again' : 'Request review';

  if (!open) {
    return (
      <Button onClick={() => setOpen(true)} aria-expanded={false}>
        {label}
      </Button>
    );
  }
  const onSubmit = (values: RequestFormValues) => {
    request.mutate(
      {
        id: configId,
        request: {
          ...(values.note ? { note: values.note } : {}),
          publish_on_approval: values.publishOnApproval,
        },
      },
      {
        onSuccess: () => {
          setOpen(false);
          notify('Review requested.');
        },
      },
    );
  };
  return (
    <Form<RequestFormInput, RequestFormValues>
      schema={requestFormSchema}
      defaultValues={{ note: '', publishOnApproval: review?.publish_on_approval ?? false }}
      onSubmit={onSubmit}
      aria-label="Request review"
    >
      <FormTextAreaField
        name="note"
        label="Note for the reviewers"
        hint="Optional."
        rows={2}
        maxLength={MAX_REVIEW_BODY_LENGTH}
      />
      <FormCheckboxField
        name="publishOnApproval"
        label="Publish when approved"
        hint="The draft goes live with the last approval it needs, if it is valid then."
      />
      <FormActions
        failure={request.isError && `The review was not requested. ${describeError(request.error)}`}
        submitLabel={label}
        pending={request.isPending}
      >
        <Button
          onClick={() => {
            request.reset();
            setOpen(false);
          }}
        >
          Cancel
        </Button>
      </FormActions>
    </Form>
  );
}
