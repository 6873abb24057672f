/**
 * API keys and the principal each one names: the key with its user and account, found by the
 * key's SHA-256 (only the hash is stored). Every authenticated request makes that lookup.
 */
import { belowLimit } from '../accounts/accounts';
import { addAudit } from '../audit/audit-log';
import { ROLE_PERMISSIONS, type Permission, type Role } from '../../../contract/auth-status';
import type { ApiKeyRecord, AuditRecord, KeyPrincipal } from '../records';
import type { Page, PageRequest } from '../pages';
import { CREATED_KEY, createdKeyOf, keysetQuery, readPage } from '../sql/keyset';
import {
  get,
  insertInto,
  lookupChanged,
  pick,
  run,
  sql,
  valuesOf,
  type Op,
  type Row,
} from '../sql/sql';

const API_KEY_COLUMNS = [
  'id',
  'account_id',
  'user_id',
  'name',
  'key_hash',
  'obfuscated_value',
  'permissions',
  'created_at',
  'last_used_at',
  'expires_at',
  'revoked_at',
];

const INSERT_KEY = insertInto('api_keys', API_KEY_COLUMNS);
const LIST_KEYS = keysetQuery('SELECT * FROM api_keys WHERE account_id = ?', CREATED_KEY, 'DESC');
const GET_KEY = sql('SELECT * FROM api_keys WHERE account_id = ? AND id = ?');
const FIND_KEY = sql('SELECT * FROM api_keys WHERE id = ?');
/** A person's active keys: neither revoked nor expired at the given instant. */
const COUNT_ACTIVE_KEYS = sql(
  'SELECT COUNT(*) AS n FROM api_keys WHERE account_id = ? AND user_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
);
const REVOKE_KEY = sql(
  'UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL',
);
const TOUCH_KEY = sql('UPDATE api_keys SET last_used_at = ? WHERE id = ?');

/** The key, its user's columns (u_) and its account's (a_). */
export const PRINCIPAL_BY_HASH = sql(
  `SELECT k.*, u.email AS u_email, u.role AS u_role, u.idp_user_id AS u_idp_user_id,
          u.created_at AS u_created_at, u.person_id AS u_person_id, u.removed_at AS u_removed_at,
          a.name AS a_name, a.account_type AS a_account_type,
          a.idp_organization_id AS a_idp_organization_id, a.created_at AS a_created_at,
          a.organization_id AS a_organization_id
     FROM api_keys k JOIN users u ON u.id = k.user_id JOIN accounts a ON a.id = k.account_id
    WHERE k.key_hash = ?`,
);

export function toApiKey(row: Row): ApiKeyRecord {
  return {
    ...pick<ApiKeyRecord>(row, API_KEY_COLUMNS),
    permissions: JSON.parse(row.permissions as string) as ApiKeyRecord['permissions'],
  };
}

/** A key's permissions within what its user's role allows now (a lowered role bounds them). */
export function keyPermissions(key: ApiKeyRecord, role: Role): readonly Permission[] {
  const allowed = ROLE_PERMISSIONS[role];
  return key.permissions.filter((permission) => allowed.includes(permission));
}

export function toPrincipal(row: Row): KeyPrincipal {
  const key = toApiKey(row);
  const role = row.u_role as Role;
  return {
    key,
    session: null,
    permissions: keyPermissions(key, role),
    user: {
      id: row.user_id as string,
      account_id: row.account_id as string,
      email: row.u_email as string,
      role,
      idp_user_id: row.u_idp_user_id as string,
      created_at: row.u_created_at as string,
      person_id: (row.u_person_id as string | null) ?? null,
      removed_at: (row.u_removed_at as string | null) ?? null,
    },
    account: {
      id: row.account_id as string,
      name: row.a_name as string,
      account_type: row.a_account_type as string,
      idp_organization_id: row.a_idp_organization_id as string,
      created_at: row.a_created_at as string,
      organization_id: (row.a_organization_id as string | null) ?? null,
    },
  };
}

export function* insertApiKey(key: ApiKeyRecord, audit: AuditRecord, limit: number): Op<boolean> {
  const { account_id: accountId, user_id: userId, created_at: at } = key;
  if (!(yield* belowLimit(accountId, limit, COUNT_ACTIVE_KEYS, accountId, userId, at)))
    return false;
  const permissions = JSON.stringify(key.permissions);
  yield* run(INSERT_KEY, ...valuesOf({ ...key, permissions }, API_KEY_COLUMNS));
  yield* addAudit(audit);
  return true;
}

/** Newest first. */
export function* listApiKeys(accountId: string, page: PageRequest): Op<Page<ApiKeyRecord>> {
  return yield* readPage(LIST_KEYS, [accountId], page, createdKeyOf, toApiKey);
}

export function* findApiKey(id: string): Op<ApiKeyRecord | undefined> {
  const row = yield* get(FIND_KEY, id);
  return row && toApiKey(row);
}

/** Sets revoked_at unless already set; the key as it then is. */
export function* revokeApiKey(
  accountId: string,
  id: string,
  at: string,
  audit: AuditRecord,
): Op<ApiKeyRecord | undefined> {
  if ((yield* run(REVOKE_KEY, at, accountId, id)) > 0) {
    yield* addAudit(audit);
    yield* lookupChanged('principals');
  }
  const row = yield* get(GET_KEY, accountId, id);
  return row && toApiKey(row);
}

export function* findPrincipal(keyHash: string): Op<KeyPrincipal | undefined> {
  const row = yield* get(PRINCIPAL_BY_HASH, keyHash);
  return row && toPrincipal(row);
}

export function* touchApiKey(id: string, at: string): Op<void> {
  yield* run(TOUCH_KEY, at, id);
}
