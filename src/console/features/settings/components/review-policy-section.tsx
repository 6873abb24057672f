/**
 * The account's review policy: a form for those who hold policy:manage, read-only for the
 * others. Hidden when the server does not offer it (404) or the key may not read configs.
 */
import { useState } from 'react';
import { hasPermission, type AuthStatus } from '../../../../contract/auth-status';
import { MAX_APPROVALS_REQUIRED, type AccountPolicy } from '../../../../contract/reviews';
import { z } from '../../../../contract/zod';
import {
  Form,
  FormActions,
  FormCheckboxField,
  type FormMethods,
  FormWholeNumberField,
} from '../../../components/form';
import { placeServerErrors } from '../../../components/form-rules';
import { ManagedSection } from '../../../components/managed-section';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { offers } from '../../../lib/permissions';
import { useAccountPolicy } from '../api/get-account-policy';
import { useSetAccountPolicy } from '../api/set-account-policy';

const APPROVALS_MESSAGE = `Enter a whole number from 0 to ${MAX_APPROVALS_REQUIRED}.`;

// A number input gives text; the contract's schema checks the policy built from it.
const reviewPolicyFormSchema = z.object({
  approvals_required: z.string().check(
    z.trim(),
    z.refine(
      (text) => /^\d+$/.test(text) && Number(text) <= MAX_APPROVALS_REQUIRED,
      APPROVALS_MESSAGE,
    ),
  ),
  reset_approvals_on_edit: z.boolean(),
});

type ReviewPolicyFormInput = z.input<typeof reviewPolicyFormSchema>;
type ReviewPolicyFormValues = z.output<typeof reviewPolicyFormSchema>;

const FIELD_OF_PATH = {
  '/approvals_required': 'approvals_required',
  '/reset_approvals_on_edit': 'reset_approvals_on_edit',
} as const;

export function describeApprovalsRequired(count: number): string {
  if (count === 0) return 'None: anyone who may publish publishes a draft alone.';
  return count === 1 ? '1 approval by someone else' : `${count} approvals by others`;
}

function ReviewPolicyForm({ policy }: { policy: AccountPolicy }) {
  const save = useSetAccountPolicy();
  const [failure, setFailure] = useState<string | null>(null);
  const onSubmit = (
    values: ReviewPolicyFormValues,
    { setError }: FormMethods<ReviewPolicyFormInput, ReviewPolicyFormValues>,
  ) => {
    setFailure(null);
    save.mutate(
      {
        approvals_required: Number(values.approvals_required),
        reset_approvals_on_edit: values.reset_approvals_on_edit,
      },
      {
        onSuccess: () => notify('Saved the review policy.'),
        onError: (error) => {
          if (!placeServerErrors(error, FIELD_OF_PATH, setError)) {
            setFailure(`The review policy was not saved. ${describeError(error)}`);
          }
        },
      },
    );
  };

  return (
    <Form
      schema={reviewPolicyFormSchema}
      defaultValues={{
        approvals_required: String(policy.approvals_required),
        reset_approvals_on_edit: policy.reset_approvals_on_edit,
      }}
      onSubmit={onSubmit}
      aria-label="Review policy"
    >
      <FormWholeNumberField
        name="approvals_required"
        label="Approvals required"
        hint={`Approvals by others a draft needs before it is published, from 0 (no review) to ${MAX_APPROVALS_REQUIRED}.`}
        min={0}
        max={MAX_APPROVALS_REQUIRED}
      />
      <FormCheckboxField
        name="reset_approvals_on_edit"
        label="Reset approvals when the draft is edited"
        hint="Checked: an approval counts only for the revision it was given on."
      />
      <FormActions failure={failure} submitLabel="Save policy" pending={save.isPending} />
    </Form>
  );
}

export function ReviewPolicySection({ status }: { status: AuthStatus }) {
  const canRead = offers(status, 'config:read');
  const canManage = hasPermission(status, 'policy:manage');
  const policy = useAccountPolicy({ enabled: canRead });

  return (
    <ManagedSection
      title="Review policy"
      allowed={canRead}
      query={policy}
      loading="Loading the review policy…"
      failure="The review policy could not be loaded."
      intro={<p>Drafts can need approvals by others before they are published.</p>}
    >
      {(current) =>
        canManage ? (
          // A saved policy comes back through the query: the form starts again from it.
          <ReviewPolicyForm
            key={`${current.approvals_required}:${current.reset_approvals_on_edit}`}
            policy={current}
          />
        ) : (
          <>
            <dl className="details">
              <dt>Approvals required</dt>
              <dd>{describeApprovalsRequired(current.approvals_required)}</dd>
              <dt>Reset approvals when the draft is edited</dt>
              <dd>{current.reset_approvals_on_edit ? 'Yes' : 'No'}</dd>
            </dl>
            <p className="field-hint">Only a key that manages API keys changes the policy.</p>
          </>
        )
      }
    </ManagedSection>
  );
}
