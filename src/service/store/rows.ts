/**
 * Rows as both stores read them, turned into the records the service uses. JSON columns are
 * text in both dialects; booleans are 0/1 in SQLite and booleans in PostgreSQL.
 */
import type {
  ApiKeyRecord,
  ConfigRecordRow,
  HistoryRecord,
  Principal,
  UserRecord,
} from './records';

export type Row = Record<string, unknown>;

/** The config columns, in the order both stores select and insert them. */
export const CONFIG_COLUMNS =
  'id, account_id, kind, label, yaml, revision, base_config_id, valid, error_count, warning_count, issues, created_at, updated_at, published_at, closed_at, closed_reason';

/** The principal query's extra columns: the key's user (u_) and account (a_). */
export const PRINCIPAL_COLUMNS =
  'k.*, u.email AS u_email, u.role AS u_role, u.idp_user_id AS u_idp_user_id, u.created_at AS u_created_at, a.name AS a_name, a.account_type AS a_account_type, a.idp_organization_id AS a_idp_organization_id, a.created_at AS a_created_at';

export function toPrincipal(row: Row): Principal {
  return {
    key: toApiKey(row),
    user: {
      id: row.user_id as string,
      account_id: row.account_id as string,
      email: row.u_email as string,
      role: row.u_role as UserRecord['role'],
      idp_user_id: row.u_idp_user_id as string,
      created_at: row.u_created_at as string,
    },
    account: {
      id: row.account_id as string,
      name: row.a_name as string,
      account_type: row.a_account_type as string,
      idp_organization_id: row.a_idp_organization_id as string,
      created_at: row.a_created_at as string,
    },
  };
}

export function toConfig(row: Row): ConfigRecordRow {
  return {
    ...(row as unknown as ConfigRecordRow),
    valid: row.valid === 1 || row.valid === true,
    issues: JSON.parse(row.issues as string) as ConfigRecordRow['issues'],
  };
}

export function toApiKey(row: Row): ApiKeyRecord {
  return {
    id: row.id as string,
    account_id: row.account_id as string,
    user_id: row.user_id as string,
    name: row.name as string,
    key_hash: row.key_hash as string,
    obfuscated_value: row.obfuscated_value as string,
    permissions: JSON.parse(row.permissions as string) as ApiKeyRecord['permissions'],
    created_at: row.created_at as string,
    last_used_at: (row.last_used_at as string | null) ?? null,
    expires_at: (row.expires_at as string | null) ?? null,
    revoked_at: (row.revoked_at as string | null) ?? null,
  };
}

export function toHistory(row: Row): HistoryRecord {
  return {
    config_id: row.config_id as string,
    account_id: row.account_id as string,
    action: row.action as HistoryRecord['action'],
    at: row.at as string,
    revision: row.revision as number,
    summary: (row.summary as string | null) ?? null,
    api_key_id: (row.api_key_id as string | null) ?? null,
    api_key_name: (row.api_key_name as string | null) ?? null,
    actor_email: (row.actor_email as string | null) ?? null,
    operations: JSON.parse(row.operations as string) as HistoryRecord['operations'],
    applied_paths: JSON.parse(row.applied_paths as string) as string[],
    ...(typeof row.text_changes === 'string'
      ? { text_changes: JSON.parse(row.text_changes) as HistoryRecord['text_changes'] }
      : {}),
  };
}
