/**
 * Organizations, people and memberships (the `users` rows: a person's role in an account).
 * A person signs in once for their organization; what they may do depends on the account.
 */
import type { Role } from '../../../contract/auth-status';
import { lockAccount } from '../accounts/accounts';
import { addAudit } from '../audit/audit-log';
import type {
  AuditRecord,
  OrganizationRecord,
  PersonRecord,
  SsoConnection,
  UserRecord,
} from '../records';
import {
  lookupChanged,
  get,
  all,
  insertInto,
  run,
  sql,
  valuesOf,
  type Op,
  type Row,
} from '../sql/sql';
import { keysetQuery, readPage, type KeysetQuery } from '../sql/keyset';
import type { Page, PageRequest } from '../pages';
import { endSessionsWhere } from '../sessions/sessions';
import { MEMBERSHIP_COLUMNS, toMembership, toOrganization, toPerson } from './rows';

const ORGANIZATION_COLUMNS = ['id', 'name', 'created_at'];
const PERSON_COLUMNS = [
  'id',
  'organization_id',
  'email',
  'name',
  'issuer',
  'subject',
  'password_hash',
  'created_at',
  'last_sign_in_at',
];

const INSERT_ORGANIZATION = insertInto('organizations', ORGANIZATION_COLUMNS);
const GET_ORGANIZATION = sql('SELECT * FROM organizations WHERE id = ?');
const ORGANIZATIONS_WITH_SSO = sql(
  'SELECT * FROM organizations WHERE sso IS NOT NULL ORDER BY created_at LIMIT 1000',
);
const GET_SSO_SECRET = sql('SELECT sso_client_secret FROM organizations WHERE id = ?');
const SET_SETTINGS = sql(
  `UPDATE organizations SET session_idle_minutes = ?, session_max_hours = ?, password_sign_in = ?,
          sso = ?, sso_client_secret = ?, sso_generation = sso_generation + ? WHERE id = ?`,
);
const INSERT_PERSON = insertInto('people', PERSON_COLUMNS);
const FIRST_ACCOUNT = sql(
  'SELECT id FROM accounts WHERE organization_id = ? ORDER BY created_at, id LIMIT 1',
);
const GET_PERSON = sql('SELECT * FROM people WHERE id = ?');
const PERSON_BY_SUBJECT = sql('SELECT * FROM people WHERE issuer = ? AND subject = ?');
const PERSON_BY_EMAIL = sql(
  'SELECT * FROM people WHERE organization_id = ? AND lower(email) = lower(?) ORDER BY created_at LIMIT 1',
);
const PEOPLE_BY_EMAIL = sql(
  'SELECT * FROM people WHERE lower(email) = lower(?) ORDER BY created_at LIMIT 20',
);
const SET_PASSWORD = sql('UPDATE people SET password_hash = ? WHERE id = ?');
const SET_IDENTITY = sql('UPDATE people SET issuer = ?, subject = ? WHERE id = ?');
const NOTE_SIGN_IN = sql(
  'UPDATE people SET last_sign_in_at = ?, name = COALESCE(?, name) WHERE id = ?',
);
const INSERT_MEMBERSHIP = insertInto('users', MEMBERSHIP_COLUMNS);
const MEMBERSHIPS_OF_PERSON = sql(
  'SELECT * FROM users WHERE person_id = ? AND removed_at IS NULL ORDER BY created_at, id',
);
const MEMBERSHIP = sql(
  'SELECT * FROM users WHERE account_id = ? AND id = ? AND removed_at IS NULL',
);
const MEMBERSHIP_OF_PERSON = sql(
  'SELECT * FROM users WHERE account_id = ? AND person_id = ? AND removed_at IS NULL',
);
const MEMBERSHIP_BY_EMAIL = sql(
  'SELECT * FROM users WHERE account_id = ? AND lower(email) = lower(?) AND removed_at IS NULL',
);
const COUNT_ADMINS = sql(
  "SELECT COUNT(*) AS n FROM users WHERE account_id = ? AND role = 'admin' AND removed_at IS NULL",
);
const SET_ROLE = sql('UPDATE users SET role = ? WHERE account_id = ? AND id = ?');
const REMOVE_MEMBERSHIP = sql(
  'UPDATE users SET removed_at = ? WHERE account_id = ? AND id = ? AND removed_at IS NULL',
);
/** A removed member's keys are revoked, so that a membership made again cannot wake them. */
const REVOKE_MEMBER_KEYS = sql(
  'UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL',
);
/** A membership made again (an invitation accepted after a removal) keeps its user id. */
const RESTORE_MEMBERSHIP = sql(
  'UPDATE users SET removed_at = NULL, role = ?, person_id = ? WHERE id = ?',
);
const ANY_MEMBERSHIP_BY_EMAIL = sql(
  'SELECT * FROM users WHERE account_id = ? AND lower(email) = lower(?)',
);
const MEMBER_SELECT = `SELECT u.id, u.email, u.role, u.created_at, p.name, p.issuer,
        p.password_hash IS NOT NULL AS has_password, p.last_sign_in_at,
        EXISTS (SELECT 1 FROM organization_owners o JOIN accounts oa ON oa.organization_id = o.organization_id
                 WHERE oa.id = u.account_id AND o.person_id = u.person_id) AS organization_owner
   FROM users u LEFT JOIN people p ON p.id = u.person_id
  WHERE u.account_id = ? AND u.removed_at IS NULL`;
const LIST_MEMBERS: KeysetQuery = keysetQuery(MEMBER_SELECT, ['u.created_at', 'u.id'], 'ASC');

export interface MemberRow {
  readonly user_id: string;
  readonly email: string;
  readonly name: string | null;
  readonly role: Role;
  readonly sign_in: 'password' | 'sso' | 'none';
  readonly last_sign_in_at: string | null;
  readonly created_at: string;
  readonly organization_owner: boolean;
}

/** A boolean column: 0/1 in SQLite, true/false in PostgreSQL. */
const isTrue = (value: unknown) => value === true || Number(value) === 1;

function toMember(row: Row): MemberRow {
  const hasPassword = isTrue(row.has_password);
  return {
    user_id: row.id as string,
    email: row.email as string,
    name: (row.name as string | null) ?? null,
    role: row.role as Role,
    sign_in: row.issuer ? 'sso' : hasPassword ? 'password' : 'none',
    last_sign_in_at: (row.last_sign_in_at as string | null) ?? null,
    created_at: row.created_at as string,
    organization_owner: isTrue(row.organization_owner),
  };
}

export function* insertOrganization(
  organization: Pick<OrganizationRecord, 'id' | 'name' | 'created_at'>,
): Op<void> {
  yield* run(INSERT_ORGANIZATION, ...valuesOf(organization, ORGANIZATION_COLUMNS));
}

export function* getOrganization(id: string): Op<OrganizationRecord | undefined> {
  const row = yield* get(GET_ORGANIZATION, id);
  return row && toOrganization(row);
}

/** Organizations with an SSO connection of their own (few: one per customer at most). */
export function* organizationsWithSso(): Op<OrganizationRecord[]> {
  return (yield* all(ORGANIZATIONS_WITH_SSO)).map((row) => toOrganization(row));
}

export function* getSsoSecret(organizationId: string): Op<string | null> {
  return ((yield* get(GET_SSO_SECRET, organizationId))?.sso_client_secret as string | null) ?? null;
}

export interface OrganizationSettingsChange {
  readonly session_idle_minutes: number | null;
  readonly session_max_hours: number | null;
  readonly password_sign_in: boolean;
  readonly sso: SsoConnection | null;
  /** The secret to keep: the new one, or the one set before. */
  readonly sso_client_secret: string | null;
  /** The connection changed: sessions signed in through the old one end. */
  readonly sso_changed: boolean;
}

export function* setOrganizationSettings(
  organizationId: string,
  change: OrganizationSettingsChange,
  audits: readonly AuditRecord[],
): Op<void> {
  yield* run(
    SET_SETTINGS,
    change.session_idle_minutes,
    change.session_max_hours,
    change.password_sign_in ? 1 : 0,
    change.sso === null ? null : JSON.stringify(change.sso),
    change.sso_client_secret,
    change.sso_changed ? 1 : 0,
    organizationId,
  );
  for (const audit of audits) yield* addAudit(audit);
}

export function* insertPerson(person: PersonRecord): Op<void> {
  yield* run(INSERT_PERSON, ...valuesOf(person, PERSON_COLUMNS));
}

export function* getPerson(id: string): Op<PersonRecord | undefined> {
  const row = yield* get(GET_PERSON, id);
  return row && toPerson(row);
}

export function* findPersonBySubject(
  issuer: string,
  subject: string,
): Op<PersonRecord | undefined> {
  const row = yield* get(PERSON_BY_SUBJECT, issuer, subject);
  return row && toPerson(row);
}

export function* findPersonByEmail(
  organizationId: string,
  email: string,
): Op<PersonRecord | undefined> {
  const row = yield* get(PERSON_BY_EMAIL, organizationId, email);
  return row && toPerson(row);
}

/** Every person with this email, in any organization (a password sign-in names no organization). */
export function* peopleByEmail(email: string): Op<PersonRecord[]> {
  return (yield* all(PEOPLE_BY_EMAIL, email)).map((row) => toPerson(row));
}

export function* setPassword(personId: string, passwordHash: string): Op<void> {
  yield* run(SET_PASSWORD, passwordHash, personId);
}

export function* setIdentity(personId: string, issuer: string, subject: string): Op<void> {
  yield* run(SET_IDENTITY, issuer, subject, personId);
}

export function* noteSignIn(personId: string, at: string, name: string | null): Op<void> {
  yield* run(NOTE_SIGN_IN, at, name, personId);
}

/**
 * Makes `membership` (a new user id), or brings back the removed one of the same email in
 * the account with the new role and person; the membership as it now is.
 */
export function* addMembership(membership: UserRecord): Op<UserRecord> {
  const earlier = yield* get(ANY_MEMBERSHIP_BY_EMAIL, membership.account_id, membership.email);
  if (earlier) {
    yield* run(RESTORE_MEMBERSHIP, membership.role, membership.person_id ?? null, earlier.id);
    return {
      ...toMembership(earlier),
      role: membership.role,
      person_id: membership.person_id ?? null,
      removed_at: null,
    };
  }
  yield* run(INSERT_MEMBERSHIP, ...valuesOf(membership, MEMBERSHIP_COLUMNS));
  return membership;
}

/** A person's memberships, oldest first: a session acts in the first unless it is told. */
export function* membershipsOf(personId: string): Op<UserRecord[]> {
  return (yield* all(MEMBERSHIPS_OF_PERSON, personId)).map((row) => toMembership(row));
}

export function* membershipOfPerson(
  accountId: string,
  personId: string,
): Op<UserRecord | undefined> {
  const row = yield* get(MEMBERSHIP_OF_PERSON, accountId, personId);
  return row && toMembership(row);
}

export function* membershipByEmail(accountId: string, email: string): Op<UserRecord | undefined> {
  const row = yield* get(MEMBERSHIP_BY_EMAIL, accountId, email);
  return row && toMembership(row);
}

export function* getMembership(accountId: string, userId: string): Op<UserRecord | undefined> {
  const row = yield* get(MEMBERSHIP, accountId, userId);
  return row && toMembership(row);
}

/** Oldest first, so that a list read while people join keeps its order. */
export function* listMembers(accountId: string, page: PageRequest): Op<Page<MemberRow>> {
  return yield* readPage(
    LIST_MEMBERS,
    [accountId],
    page,
    (row) => [row.created_at as string, row.id as string],
    toMember,
  );
}

export function* getMember(accountId: string, userId: string): Op<MemberRow | undefined> {
  const row = yield* get(sql(`${MEMBER_SELECT} AND u.id = ?`), accountId, userId);
  return row && toMember(row);
}

/** Why a membership change was not made. */
export type MembershipChangeRefusal = 'not_found' | 'last_admin';

/**
 * A member's new role, unless it would leave the account without an admin; counted under
 * the account's lock, so two admins demoting each other at once cannot both succeed.
 */
export function* setMemberRole(
  accountId: string,
  userId: string,
  role: Role,
  audit: AuditRecord,
): Op<MembershipChangeRefusal | undefined> {
  yield* lockAccount(accountId);
  const member = yield* getMembership(accountId, userId);
  if (!member) return 'not_found';
  if (member.role === role) return undefined;
  if (member.role === 'admin' && (yield* adminCount(accountId)) <= 1) return 'last_admin';
  yield* run(SET_ROLE, role, accountId, userId);
  yield* addAudit(audit);
  yield* lookupChanged('principals');
  return undefined;
}

/** Removes a member: their sessions end, and their keys stop working (the lookup checks). */
export function* removeMember(
  accountId: string,
  userId: string,
  at: string,
  audit: AuditRecord,
): Op<MembershipChangeRefusal | undefined> {
  yield* lockAccount(accountId);
  const member = yield* getMembership(accountId, userId);
  if (!member) return 'not_found';
  if (member.role === 'admin' && (yield* adminCount(accountId)) <= 1) return 'last_admin';
  yield* run(REMOVE_MEMBERSHIP, at, accountId, userId);
  yield* run(REVOKE_MEMBER_KEYS, at, userId);
  yield* endSessionsWhere({ userId }, at, 'member_removed');
  yield* addAudit(audit);
  yield* lookupChanged('principals');
  return undefined;
}

function* adminCount(accountId: string): Op<number> {
  return Number((yield* get(COUNT_ADMINS, accountId))?.n ?? 0);
}

/** The organization's oldest account: where a person joining just-in-time lands. */
export function* firstAccountOf(organizationId: string): Op<string | undefined> {
  return (yield* get(FIRST_ACCOUNT, organizationId))?.id as string | undefined;
}

const INSERT_SECRET = sql(
  'INSERT INTO service_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
);
const GET_SECRET = sql('SELECT value FROM service_secrets WHERE name = ?');

/** The service's secret of this name: `candidate` if none was kept yet, else the one kept. */
export function* serviceSecret(name: string, candidate: string, at: string): Op<string> {
  yield* run(INSERT_SECRET, name, candidate, at);
  return (yield* get(GET_SECRET, name))?.value as string;
}
