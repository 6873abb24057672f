/**
 * The people's part of the Store facade (SqlStore extends it, through the experiments'
 * part): sign-in failures, organizations, people and memberships, sign-ins, sessions and
 * invitations, each method one operation of its aggregate on the executor.
 */
import type { Role } from '../../contract/auth-status';
import * as auditLog from './audit/audit-log';
import * as invitations from './invitations/invitations';
import type { PageRequest } from './pages';
import * as people from './people/people';
import type { OrganizationSettingsChange } from './people/people';
import type { PeopleStore, SessionsOf } from './people/people-store';
import * as signIns from './people/sign-ins';
import type { SignInWrites } from './people/sign-ins';
import type { AuditRecord, InvitationRecord, SessionRecord } from './records';
import * as sessions from './sessions/sessions';
import * as signInFailures from './sign-in-failures/sign-in-failures';
import type { FailureScope } from './sign-in-failures/sign-in-failures';
import type { SignInThrottleStore } from './sign-in-failures/sign-in-failures-store';
import type { Executor } from './sql/sql';

export abstract class SqlPeopleStore implements PeopleStore, SignInThrottleStore {
  protected abstract readonly db: Executor;

  addSignInFailures(
    subjects: readonly { readonly scope: FailureScope; readonly subject: string }[],
    at: string,
  ) {
    return this.db.write(signInFailures.addSignInFailures(subjects, at));
  }
  countSignInFailures(scope: FailureScope, subject: string, since: string) {
    return this.db.read(signInFailures.countSignInFailures(scope, subject, since));
  }
  clearSignInFailures(scope: FailureScope, subject: string) {
    return this.db.writeOne(signInFailures.clearSignInFailures(scope, subject));
  }
  pruneSignInFailures(before: string, limit: number) {
    return this.db.writeOne(signInFailures.pruneSignInFailures(before, limit));
  }
  serviceSecret(name: string, candidate: string, at: string) {
    return this.db.write(people.serviceSecret(name, candidate, at));
  }
  getOrganization(id: string) {
    return this.db.read(people.getOrganization(id));
  }
  organizationsWithSso() {
    return this.db.read(people.organizationsWithSso());
  }
  getSsoSecret(organizationId: string) {
    return this.db.read(people.getSsoSecret(organizationId));
  }
  setOrganizationSettings(
    organizationId: string,
    change: OrganizationSettingsChange,
    audits: readonly AuditRecord[],
  ) {
    return this.db.write(people.setOrganizationSettings(organizationId, change, audits));
  }
  firstAccountOf(organizationId: string) {
    return this.db.read(people.firstAccountOf(organizationId));
  }
  async addAuditRecord(record: AuditRecord) {
    await this.db.writeOne(auditLog.addAudit(record));
  }
  getPerson(id: string) {
    return this.db.read(people.getPerson(id));
  }
  findPersonBySubject(issuer: string, subject: string) {
    return this.db.read(people.findPersonBySubject(issuer, subject));
  }
  findPersonByEmail(organizationId: string, email: string) {
    return this.db.read(people.findPersonByEmail(organizationId, email));
  }
  peopleByEmail(email: string) {
    return this.db.read(people.peopleByEmail(email));
  }
  membershipsOf(personId: string) {
    return this.db.read(people.membershipsOf(personId));
  }
  membershipOfPerson(accountId: string, personId: string) {
    return this.db.read(people.membershipOfPerson(accountId, personId));
  }
  membershipByEmail(accountId: string, email: string) {
    return this.db.read(people.membershipByEmail(accountId, email));
  }
  listMembers(accountId: string, page: PageRequest) {
    return this.db.read(people.listMembers(accountId, page));
  }
  getMember(accountId: string, userId: string) {
    return this.db.read(people.getMember(accountId, userId));
  }
  setMemberRole(accountId: string, userId: string, role: Role, audit: AuditRecord) {
    return this.db.write(people.setMemberRole(accountId, userId, role, audit));
  }
  removeMember(accountId: string, userId: string, at: string, audit: AuditRecord) {
    return this.db.write(people.removeMember(accountId, userId, at, audit));
  }

  recordSignIn(writes: SignInWrites) {
    return this.db.write(signIns.recordSignIn(writes));
  }
  insertSession(session: SessionRecord, audit: AuditRecord | null) {
    return this.db.write(sessions.insertSession(session, audit));
  }
  findSessionByHash(tokenHash: string) {
    return this.db.read(sessions.findSessionByHash(tokenHash));
  }
  getSession(id: string) {
    return this.db.read(sessions.getSession(id));
  }
  touchSession(id: string, at: string) {
    return this.db.writeOne(sessions.touchSession(id, at));
  }
  endSession(id: string, at: string, reason: string, audit: AuditRecord | null) {
    return this.db.write(sessions.endSession(id, at, reason, audit));
  }
  endSessions(of: SessionsOf, at: string, reason: string, audit: AuditRecord) {
    return this.db.write(sessions.endSessions(of, at, reason, audit));
  }
  listOpenSessions(personId: string, page: PageRequest) {
    return this.db.read(sessions.listOpenSessions(personId, page));
  }

  insertInvitation(invitation: InvitationRecord, audit: AuditRecord) {
    return this.db.write(invitations.insertInvitation(invitation, audit));
  }
  listInvitations(accountId: string, page: PageRequest) {
    return this.db.read(invitations.listInvitations(accountId, page));
  }
  findInvitationByToken(tokenHash: string) {
    return this.db.read(invitations.findInvitationByToken(tokenHash));
  }
  revokeInvitation(accountId: string, id: string, at: string, audit: AuditRecord) {
    return this.db.write(invitations.revokeInvitation(accountId, id, at, audit));
  }
}
