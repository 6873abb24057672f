/**
 * "Make <email> an owner?": what owning the organization gives, and that nothing takes it
 * back (the API names owners but has no way to unname one). A refusal is said in the dialog.
 */
import type { RefObject } from 'react';
import type { Member } from '../../../../contract/people';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { notify } from '../../../lib/notices';
import { useNameOrganizationOwner } from '../api/people';
import { describeOwnerFailure } from './member-words';

export function NameOwnerDialog({
  member,
  organizationName,
  onClose,
  returnFocus,
}: {
  /** The member to name; null while the dialog is closed. */
  member: Member | null;
  organizationName: string | undefined;
  onClose: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}) {
  const name = useNameOrganizationOwner();
  const organization = organizationName ?? 'the organization';
  const email = member?.email ?? '';
  return (
    <ConfirmDialog
      open={member !== null}
      title={`Make ${email} an owner?`}
      confirmLabel="Make owner"
      onConfirm={() => {
        if (!member) return;
        name.mutate(member.user_id, {
          onSuccess: () => {
            notify(`${member.email} is now an owner of ${organization}.`);
            onClose();
          },
        });
      }}
      onClose={() => {
        name.reset();
        onClose();
      }}
      pending={name.isPending}
      error={null}
      failure=""
      returnFocus={returnFocus}
    >
      <p>
        {email} will be able to create accounts and act on every account of {organization}: they
        become an admin of each, and of every account made later.
      </p>
      <p>This cannot be undone from the console, and the API has no way to take it back either.</p>
      <ErrorAlert>
        {name.isError && `${email} was not made an owner. ${describeOwnerFailure(name.error)}`}
      </ErrorAlert>
    </ConfirmDialog>
  );
}
