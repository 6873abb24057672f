/**
 * An invitation link's state, and what accepting one makes and records: shared by accepting
 * it with a password, as a signed-in person, or through SSO.
 */
import { newId } from '../ids';
import type { AuditRecord, InvitationRecord, PersonRecord, UserRecord } from '../store/records';
import type { Store } from '../store/store';
import { audit } from './audit';

/** What an invitation's state is at `now`. */
export function invitationStatus(
  invitation: InvitationRecord,
  now: Date,
): 'pending' | 'accepted' | 'revoked' | 'expired' {
  if (invitation.accepted_at !== null) return 'accepted';
  if (invitation.revoked_at !== null) return 'revoked';
  return Date.parse(invitation.expires_at) <= now.getTime() ? 'expired' : 'pending';
}

export function invitationAccepted(
  invitation: InvitationRecord,
  membership: UserRecord,
  at: string,
): AuditRecord {
  return audit(
    invitation.account_id,
    at,
    'invitation.accept',
    { key: null, user: membership },
    invitation.id,
    {
      email: invitation.email,
      role: invitation.role,
    },
  );
}

/** The membership an invitation makes: the person's own in that account, or a new one. */
export async function invitedMembership(
  store: Store,
  invitation: InvitationRecord,
  person: PersonRecord,
  at: string,
): Promise<{ record: UserRecord; isNew: boolean }> {
  const current = await store.membershipOfPerson(invitation.account_id, person.id);
  if (current) return { record: current, isNew: false };
  const elsewhere = (await store.membershipsOf(person.id)).length > 0;
  return {
    isNew: true,
    record: {
      id: newId('usr_'),
      account_id: invitation.account_id,
      email: invitation.email,
      role: invitation.role,
      idp_user_id: membershipIdpUserId(person, invitation.account_id, elsewhere),
      created_at: at,
      person_id: person.id,
    },
  };
}

/**
 * A membership's idp_user_id, unique across memberships: the person's own id for their first,
 * qualified by the account for a person who is a member of several accounts.
 */
export function membershipIdpUserId(
  person: PersonRecord,
  accountId: string,
  elsewhere: boolean,
): string {
  const own = person.subject ?? person.id;
  return elsewhere ? `${own}@${accountId}` : own;
}
