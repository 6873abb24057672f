/**
 * Invitations: a one-time link, known here only by its SHA-256, that makes the person with
 * that email a member. Accepting marks it used in the same transaction as the membership.
 */
import { addAudit } from '../audit/audit-log';
import type { Page, PageRequest } from '../pages';
import type { AuditRecord, InvitationRecord } from '../records';
import { CREATED_KEY, createdKeyOf, keysetQuery, readPage } from '../sql/keyset';
import { get, insertInto, pick, run, sql, valuesOf, type Op } from '../sql/sql';

const INVITATION_COLUMNS = [
  'id',
  'account_id',
  'email',
  'role',
  'token_hash',
  'created_by',
  'created_at',
  'expires_at',
  'accepted_at',
  'accepted_by',
  'revoked_at',
];

const INSERT_INVITATION = insertInto('invitations', INVITATION_COLUMNS);
const LIST_INVITATIONS = keysetQuery(
  'SELECT * FROM invitations WHERE account_id = ?',
  CREATED_KEY,
  'DESC',
);
const BY_TOKEN = sql('SELECT * FROM invitations WHERE token_hash = ?');
const BY_ID = sql('SELECT * FROM invitations WHERE account_id = ? AND id = ?');
const REVOKE = sql(
  'UPDATE invitations SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL AND accepted_at IS NULL',
);
/** Only a pending, unexpired invitation is taken: two acceptances race, one wins. */
const ACCEPT = sql(
  `UPDATE invitations SET accepted_at = ?, accepted_by = ?
    WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?`,
);

const toInvitation = (row: Record<string, unknown>) =>
  pick<InvitationRecord>(row, INVITATION_COLUMNS);

export function* insertInvitation(invitation: InvitationRecord, audit: AuditRecord): Op<void> {
  yield* run(INSERT_INVITATION, ...valuesOf(invitation, INVITATION_COLUMNS));
  yield* addAudit(audit);
}

export function* listInvitations(accountId: string, page: PageRequest): Op<Page<InvitationRecord>> {
  return yield* readPage(LIST_INVITATIONS, [accountId], page, createdKeyOf, toInvitation);
}

export function* findInvitationByToken(tokenHash: string): Op<InvitationRecord | undefined> {
  const row = yield* get(BY_TOKEN, tokenHash);
  return row && toInvitation(row);
}

/** Revokes a pending invitation; the invitation as it now is, undefined when unknown. */
export function* revokeInvitation(
  accountId: string,
  id: string,
  at: string,
  audit: AuditRecord,
): Op<InvitationRecord | undefined> {
  if ((yield* run(REVOKE, at, accountId, id)) > 0) yield* addAudit(audit);
  const row = yield* get(BY_ID, accountId, id);
  return row && toInvitation(row);
}

/** Marks the invitation used by `userId`; false when it was no longer pending at `at`. */
export function* markInvitationAccepted(id: string, userId: string, at: string): Op<boolean> {
  return (yield* run(ACCEPT, at, userId, id, at)) > 0;
}
