/** What the store keeps of people: organizations, people, memberships, sessions, invitations. */
import type { Role } from '../../../contract/auth-status';
import type { Page, PageRequest } from '../pages';
import type {
  AuditRecord,
  InvitationRecord,
  OrganizationRecord,
  PersonRecord,
  SessionRecord,
  UserRecord,
} from '../records';
import type { SessionLookup } from '../sessions/sessions';
import type { MemberRow, MembershipChangeRefusal, OrganizationSettingsChange } from './people';
import type { SignInWrites } from './sign-ins';

export type SessionsOf =
  { readonly personId: string; readonly exceptId?: string } | { readonly userId: string };

export interface PeopleStore {
  /** A secret every instance shares: the first instance's `candidate` is kept. */
  serviceSecret(name: string, candidate: string, at: string): Promise<string>;
  getOrganization(id: string): Promise<OrganizationRecord | undefined>;
  organizationsWithSso(): Promise<OrganizationRecord[]>;
  /** Write-only outside: read only to talk to the identity provider. */
  getSsoSecret(organizationId: string): Promise<string | null>;
  setOrganizationSettings(
    organizationId: string,
    change: OrganizationSettingsChange,
    audits: readonly AuditRecord[],
  ): Promise<void>;

  firstAccountOf(organizationId: string): Promise<string | undefined>;
  /** An audit record on its own (a failed sign-in, which changes nothing else). */
  addAuditRecord(record: AuditRecord): Promise<void>;
  getPerson(id: string): Promise<PersonRecord | undefined>;
  findPersonBySubject(issuer: string, subject: string): Promise<PersonRecord | undefined>;
  findPersonByEmail(organizationId: string, email: string): Promise<PersonRecord | undefined>;
  peopleByEmail(email: string): Promise<PersonRecord[]>;
  membershipsOf(personId: string): Promise<UserRecord[]>;
  membershipOfPerson(accountId: string, personId: string): Promise<UserRecord | undefined>;
  membershipByEmail(accountId: string, email: string): Promise<UserRecord | undefined>;
  listMembers(accountId: string, page: PageRequest): Promise<Page<MemberRow>>;
  getMember(accountId: string, userId: string): Promise<MemberRow | undefined>;
  setMemberRole(
    accountId: string,
    userId: string,
    role: Role,
    audit: AuditRecord,
  ): Promise<MembershipChangeRefusal | undefined>;
  removeMember(
    accountId: string,
    userId: string,
    at: string,
    audit: AuditRecord,
  ): Promise<MembershipChangeRefusal | undefined>;

  /** Throws InvitationUnusable (writing nothing) when its invitation was taken meanwhile. */
  recordSignIn(writes: SignInWrites): Promise<SessionRecord>;
  insertSession(session: SessionRecord, audit: AuditRecord | null): Promise<void>;
  findSessionByHash(tokenHash: string): Promise<SessionLookup | undefined>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  touchSession(id: string, at: string): Promise<void>;
  endSession(id: string, at: string, reason: string, audit: AuditRecord | null): Promise<boolean>;
  endSessions(
    sessions: SessionsOf,
    at: string,
    reason: string,
    audit: AuditRecord,
  ): Promise<number>;
  listOpenSessions(personId: string, page: PageRequest): Promise<Page<SessionRecord>>;

  insertInvitation(invitation: InvitationRecord, audit: AuditRecord): Promise<void>;
  listInvitations(accountId: string, page: PageRequest): Promise<Page<InvitationRecord>>;
  findInvitationByToken(tokenHash: string): Promise<InvitationRecord | undefined>;
  revokeInvitation(
    accountId: string,
    id: string,
    at: string,
    audit: AuditRecord,
  ): Promise<InvitationRecord | undefined>;
}
