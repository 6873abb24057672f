/**
 * A sign-in's writes in one transaction: the person made or linked, the membership made or
 * its role set from groups, an invitation used, the session, the audit records. The domain
 * decides what they are (domain/sign-ins.ts); here they are written all or none.
 */
import { addAudit } from '../audit/audit-log';
import { markInvitationAccepted } from '../invitations/invitations';
import type { AuditRecord, PersonRecord, SessionRecord, UserRecord } from '../records';
import { insertSession } from '../sessions/sessions';
import { lookupChanged, run, sql, type Op } from '../sql/sql';
import { addMembership, insertPerson, noteSignIn, setIdentity, setPassword } from './people';

const SET_ROLE = sql('UPDATE users SET role = ? WHERE id = ?');

export interface SignInWrites {
  readonly newPerson?: PersonRecord;
  readonly identity?: {
    readonly personId: string;
    readonly issuer: string;
    readonly subject: string;
  };
  readonly password?: { readonly personId: string; readonly hash: string };
  /** Used first: when it is no longer pending, nothing at all is written. */
  readonly invitationId?: string;
  readonly membership?: UserRecord;
  readonly role?: { readonly userId: string; readonly role: UserRecord['role'] };
  /** Its user_id is the membership's when one is made here. */
  readonly session: SessionRecord;
  readonly name: string | null;
  readonly audits: readonly AuditRecord[];
}

/** The session as written; throws InvitationUnusable (nothing written) when the invitation was taken. */
export function* recordSignIn(writes: SignInWrites): Op<SessionRecord> {
  const at = writes.session.created_at;
  if (writes.newPerson) yield* insertPerson(writes.newPerson);
  let userId = writes.session.user_id;
  if (writes.membership) userId = (yield* addMembership(writes.membership)).id;
  if (writes.invitationId !== undefined) {
    if (!(yield* markInvitationAccepted(writes.invitationId, userId, at))) {
      // Nothing before this point may stay: the executor's transaction is rolled back.
      throw new InvitationUnusable();
    }
  }
  if (writes.identity) {
    const { personId, issuer, subject } = writes.identity;
    yield* setIdentity(personId, issuer, subject);
  }
  if (writes.password) yield* setPassword(writes.password.personId, writes.password.hash);
  if (writes.role) {
    yield* run(SET_ROLE, writes.role.role, writes.role.userId);
    yield* lookupChanged('principals');
  }
  const session = { ...writes.session, user_id: userId };
  yield* insertSession(session, null);
  yield* noteSignIn(session.person_id, at, writes.name);
  for (const audit of writes.audits) yield* addAudit({ ...audit, actor: audit.actor ?? userId });
  return session;
}

/** Thrown inside the transaction to roll back a sign-in whose invitation was taken meanwhile. */
export class InvitationUnusable extends Error {
  constructor() {
    super('The invitation is no longer pending');
  }
}
