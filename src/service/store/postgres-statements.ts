/**
 * The PostgreSQL store's SQL: its statements, and the parameters each writes, built from
 * the records the store is given.
 */
import type {
  AccountRecord,
  AuditRecord,
  HistoryRecord,
  NewConfig,
  ReviewRecord,
  UserRecord,
} from './records';
import { CONFIG_COLUMNS, REVIEW_COLUMNS } from './rows';

export interface Statement {
  readonly text: string;
  readonly values: unknown[];
}

export const SQL = {
  insertAccount:
    'INSERT INTO accounts (id, name, account_type, idp_organization_id, created_at) VALUES ($1, $2, $3, $4, $5)',
  insertUser:
    'INSERT INTO users (id, account_id, email, role, idp_user_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
  insertKey:
    'INSERT INTO api_keys (id, account_id, user_id, name, key_hash, obfuscated_value, permissions, created_at, last_used_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
  insertConfig: `INSERT INTO configs (${CONFIG_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULL, NULL, NULL)`,
  updateConfig:
    'UPDATE configs SET yaml = $3, revision = $4, valid = $5, error_count = $6, warning_count = $7, issues = $8, updated_at = $9 WHERE account_id = $1 AND id = $2',
  closeConfig:
    'UPDATE configs SET closed_at = $3, closed_reason = $4 WHERE account_id = $1 AND id = $2',
  setLive:
    'INSERT INTO live_configs (account_id, config_id) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET config_id = excluded.config_id',
  getLive: 'SELECT config_id FROM live_configs WHERE account_id = $1',
  insertHistory:
    'INSERT INTO history (account_id, config_id, action, at, revision, summary, api_key_id, api_key_name, actor_email, operations, applied_paths, text_changes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)',
  setReview: 'UPDATE configs SET review = $3 WHERE account_id = $1 AND id = $2',
  insertReview: `INSERT INTO reviews (${REVIEW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
  insertAudit:
    'INSERT INTO audit_log (account_id, at, action, actor, target_id, detail) VALUES ($1, $2, $3, $4, $5, $6)',
} as const;

export function accountStatement(account: AccountRecord): Statement {
  return {
    text: SQL.insertAccount,
    values: [
      account.id,
      account.name,
      account.account_type,
      account.idp_organization_id,
      account.created_at,
    ],
  };
}

export function userStatement(user: UserRecord): Statement {
  return {
    text: SQL.insertUser,
    values: [user.id, user.account_id, user.email, user.role, user.idp_user_id, user.created_at],
  };
}

export function configStatement(config: NewConfig): Statement {
  return {
    text: SQL.insertConfig,
    values: [
      config.id,
      config.account_id,
      config.kind,
      config.label,
      config.yaml,
      config.revision,
      config.base_config_id,
      config.valid,
      config.error_count,
      config.warning_count,
      JSON.stringify(config.issues),
      config.created_at,
      config.updated_at,
      config.published_at,
    ],
  };
}

export function historyStatement(entry: HistoryRecord): Statement {
  return {
    text: SQL.insertHistory,
    values: [
      entry.account_id,
      entry.config_id,
      entry.action,
      entry.at,
      entry.revision,
      entry.summary,
      entry.api_key_id,
      entry.api_key_name,
      entry.actor_email,
      JSON.stringify(entry.operations),
      JSON.stringify(entry.applied_paths),
      entry.text_changes ? JSON.stringify(entry.text_changes) : null,
    ],
  };
}

export function auditStatement(entry: AuditRecord): Statement {
  return {
    text: SQL.insertAudit,
    values: [
      entry.account_id,
      entry.at,
      entry.action,
      entry.actor,
      entry.target_id,
      JSON.stringify(entry.detail),
    ],
  };
}

export function reviewStatement(review: ReviewRecord): Statement {
  return {
    text: SQL.insertReview,
    values: [
      review.id,
      review.account_id,
      review.config_id,
      review.verdict,
      review.body,
      review.line,
      review.revision,
      review.api_key_id,
      review.reviewer,
      review.at,
    ],
  };
}
