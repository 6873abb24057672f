/**
 * Schema migrations, run at start-up in order. `PRAGMA user_version` records how many have
 * run; each runs in its own transaction. Append new migrations; never edit a shipped one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    account_type TEXT NOT NULL,
    idp_organization_id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );

  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    email TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
    idp_user_id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    UNIQUE (account_id, email)
  );

  -- Only the SHA-256 of a key is stored; the key itself is shown once and never kept.
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    obfuscated_value TEXT NOT NULL,
    permissions TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    expires_at TEXT,
    revoked_at TEXT
  );
  CREATE INDEX api_keys_by_account ON api_keys(account_id, created_at);

  -- Drafts and published versions. A published draft or a discarded one is closed, not
  -- deleted, so that history and base_config_id keep pointing at a row.
  CREATE TABLE configs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL CHECK (kind IN ('draft', 'published')),
    label TEXT NOT NULL,
    yaml TEXT NOT NULL,
    revision INTEGER NOT NULL,
    base_config_id TEXT REFERENCES configs(id),
    valid INTEGER NOT NULL,
    error_count INTEGER NOT NULL,
    warning_count INTEGER NOT NULL,
    -- The validation issues of yaml, as JSON: a read needs no parse.
    issues TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    published_at TEXT,
    closed_at TEXT,
    closed_reason TEXT CHECK (closed_reason IN ('published', 'discarded'))
  );
  CREATE INDEX configs_by_account ON configs(account_id, closed_at, created_at);

  CREATE TABLE live_configs (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id),
    config_id TEXT NOT NULL REFERENCES configs(id)
  );

  CREATE TABLE history (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    config_id TEXT NOT NULL REFERENCES configs(id),
    action TEXT NOT NULL,
    at TEXT NOT NULL,
    revision INTEGER NOT NULL,
    summary TEXT,
    api_key_id TEXT,
    api_key_name TEXT,
    actor_email TEXT,
    operations TEXT NOT NULL,
    applied_paths TEXT NOT NULL
  );
  CREATE INDEX history_by_config ON history(config_id, seq);

  CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT NOT NULL,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    actor TEXT,
    target_id TEXT,
    detail TEXT NOT NULL
  );
  `,
];
