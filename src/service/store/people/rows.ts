/** Rows of organizations, people and memberships as records (columns optionally prefixed). */
import type { Role } from '../../../contract/auth-status';
import type { OrganizationRecord, PersonRecord, SsoConnection, UserRecord } from '../records';
import type { Row } from '../sql/sql';

/** A membership's columns (the `users` table), as written. */
export const MEMBERSHIP_COLUMNS = [
  'id',
  'account_id',
  'email',
  'role',
  'idp_user_id',
  'created_at',
  'person_id',
];

export function toOrganization(row: Row, prefix = ''): OrganizationRecord {
  const sso = row[`${prefix}sso`] as string | null;
  return {
    id: row[`${prefix}id`] as string,
    name: row[`${prefix}name`] as string,
    session_idle_minutes: nullableNumber(row[`${prefix}session_idle_minutes`]),
    session_max_hours: nullableNumber(row[`${prefix}session_max_hours`]),
    password_sign_in: Number(row[`${prefix}password_sign_in`]) === 1,
    sso: sso === null || sso === undefined ? null : (JSON.parse(sso) as SsoConnection),
    sso_generation: Number(row[`${prefix}sso_generation`] ?? 0),
    created_at: row[`${prefix}created_at`] as string,
  };
}

export function toPerson(row: Row, prefix = ''): PersonRecord {
  const field = (name: string) => (row[`${prefix}${name}`] ?? null) as string | null;
  return {
    id: field('id') as string,
    organization_id: field('organization_id') as string,
    email: field('email') as string,
    name: field('name'),
    issuer: field('issuer'),
    subject: field('subject'),
    password_hash: field('password_hash'),
    created_at: field('created_at') as string,
    last_sign_in_at: field('last_sign_in_at'),
  };
}

export function toMembership(row: Row, prefix = ''): UserRecord {
  const field = (name: string) => (row[`${prefix}${name}`] ?? null) as string | null;
  return {
    id: field('id') as string,
    account_id: field('account_id') as string,
    email: field('email') as string,
    role: field('role') as Role,
    idp_user_id: field('idp_user_id') as string,
    created_at: field('created_at') as string,
    person_id: field('person_id'),
    removed_at: field('removed_at'),
  };
}

function nullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
