/**
 * Invite a person: their email and role. The service sends no email: the one-time link is
 * shown once, to copy and pass on.
 */
import { useId, useState } from 'react';
import { ROLES } from '../../../../contract/auth-status';
import {
  createInvitationSchema,
  INVITATION_VALID_DAYS,
  type CreatedInvitation,
} from '../../../../contract/people';
import { z } from '../../../../contract/zod';
import {
  Form,
  FormActions,
  FormSelectField,
  FormTextField,
  type FormMethods,
} from '../../../components/form';
import { placeServerErrors } from '../../../components/form-rules';
import { ShownOnce } from '../../../components/shown-once';
import { notify } from '../../../lib/notices';
import { useCreateInvitation } from '../api/people';
import { describeMemberFailure } from './member-words';

const inviteFormSchema = z.object({
  email: z.string().check(
    z.trim(),
    z.minLength(1, 'Enter the email address to invite.'),
    z.refine(
      (text) => createInvitationSchema.shape.email.safeParse(text).success,
      'Enter an email address, such as ana@example.com.',
    ),
  ),
  role: z.enum(ROLES),
});
type InviteFormInput = z.input<typeof inviteFormSchema>;
type InviteFormValues = z.output<typeof inviteFormSchema>;

const FIELD_OF_PATH = { '/email': 'email', '/role': 'role' } as const;

export function InviteForm() {
  const titleId = useId();
  const invite = useCreateInvitation();
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = (
    values: InviteFormValues,
    { reset, setError }: FormMethods<InviteFormInput, InviteFormValues>,
  ) => {
    setFailure(null);
    invite.mutate(values, {
      onSuccess: (invitation) => {
        // The link is this screen's alone from here: the mutation cache lets go of it.
        invite.reset();
        setCreated(invitation);
        reset();
        notify(`Invited ${invitation.email}.`);
      },
      onError: (error) => {
        if (!placeServerErrors(error, FIELD_OF_PATH, setError)) {
          setFailure(`The invitation was not made. ${describeMemberFailure(error)}`);
        }
      },
    });
  };

  return (
    <div className="invite">
      <h3 id={titleId}>Invite a person</h3>
      <Form
        schema={inviteFormSchema}
        defaultValues={{ email: '', role: 'viewer' }}
        onSubmit={onSubmit}
        aria-labelledby={titleId}
      >
        <FormTextField
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
          spellCheck={false}
        />
        <FormSelectField name="role" label="Role">
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </FormSelectField>
        <FormActions failure={failure} submitLabel="Invite" pending={invite.isPending} />
      </Form>
      {created && (
        <ShownOnce
          intro={
            <>
              Invited <strong>{created.email}</strong> as {created.role}. Pass this link on: it
              works once, for that email only, for {INVITATION_VALID_DAYS} days.
            </>
          }
          label="Invitation link"
          value={created.link}
          copyLabel="Copy link"
          copied="Invitation link"
          warning="Copy the link now: it will not be shown again."
          onDone={() => setCreated(null)}
        />
      )}
    </div>
  );
}
