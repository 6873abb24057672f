/**
 * Schema migrations, run at start-up in order, each in its own transaction. Each is written
 * once, in SQLite's words; PostgreSQL's text is made from it by the few rewrites below, so the
 * two cannot drift apart (a test compares the tables and columns they create). SQLite counts
 * those run in `PRAGMA user_version`, PostgreSQL in `schema_migrations`. Append new
 * migrations; never edit a shipped one (SQLite keeps each CREATE TABLE's text as written).
 * A migration that no rewrite can carry over (an index only one database has) gives
 * PostgreSQL's text beside SQLite's. The later ones, from people on, sit in
 * migrations-since-people.ts: append new ones there.
 */
import { SINCE_PEOPLE } from './migrations-since-people';
export interface Migration {
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
}

/** A migration as written: in SQLite's words, PostgreSQL's own text only where they differ. */
export type Written = Omit<Migration, 'postgres'> & { readonly postgres?: string };

const WRITTEN: readonly Written[] = [
  {
    name: 'accounts, users, API keys, configs, history and the audit log',
    sqlite: `
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
  },
  {
    name: 'the text change each edit made, so that a typed text can be carried over a merge',
    sqlite: `ALTER TABLE history ADD COLUMN text_changes TEXT;`,
  },
  {
    name: 'review before publishing: account policies, reviews, the review of each draft',
    sqlite: `
  -- The review of a draft as JSON (who asked, each reviewer's latest verdict); NULL: none.
  ALTER TABLE configs ADD COLUMN review TEXT;

  -- No row: the default policy (no approvals required).
  CREATE TABLE account_policies (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id),
    approvals_required INTEGER NOT NULL CHECK (approvals_required BETWEEN 0 AND 5),
    reset_approvals_on_edit INTEGER NOT NULL,
    updated_at TEXT NOT NULL
  );

  CREATE TABLE reviews (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    config_id TEXT NOT NULL REFERENCES configs(id),
    verdict TEXT NOT NULL CHECK (verdict IN ('approve', 'request_changes', 'comment')),
    body TEXT NOT NULL,
    line INTEGER,
    revision INTEGER NOT NULL,
    api_key_id TEXT,
    reviewer TEXT NOT NULL,
    at TEXT NOT NULL
  );
  CREATE INDEX reviews_by_config ON reviews(config_id, seq);
  `,
  },
  {
    name: 'client keys: what apps read their live view with',
    sqlite: `
  -- A client key is not a secret (apps carry it in their code): stored as is, looked up by
  -- value. apps: a JSON list of app ids, NULL for every app of the account.
  CREATE TABLE client_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE,
    apps TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE INDEX client_keys_by_account ON client_keys(account_id, created_at);
  `,
  },
  {
    name: 'webhooks: endpoints and the outbox of their deliveries',
    sqlite: `
  -- The secret is kept (not a hash): every delivery is signed with it. events: a JSON list.
  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    description TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE INDEX webhooks_by_account ON webhooks(account_id, created_at);

  -- The outbox: one row per event and endpoint, written in the transaction of the change it
  -- announces. seq orders an endpoint's deliveries; payload is the exact body sent.
  CREATE TABLE webhook_deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id),
    account_id TEXT NOT NULL REFERENCES accounts(id),
    event TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    next_attempt_at TEXT,
    last_attempt_at TEXT,
    response_status INTEGER,
    error TEXT,
    lease_until TEXT
  );
  CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries(webhook_id, seq);
  -- What a sender looks up: each endpoint's earliest pending delivery, and whether it is due.
  CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(webhook_id, seq) WHERE status = 'pending';
  `,
  },
  {
    name: 'lists read a page at a time: the open configs by account, newest first',
    sqlite: `
  CREATE INDEX configs_open_by_created ON configs(account_id, created_at, id) WHERE closed_at IS NULL;
  `,
  },
  {
    name: 'an audit trail to read: the address of each change, an index by account, audit:read for admin keys',
    sqlite: `
  ALTER TABLE audit_log ADD COLUMN ip TEXT;
  CREATE INDEX audit_log_by_account ON audit_log(account_id, seq);
  CREATE INDEX audit_log_by_target ON audit_log(account_id, target_id, seq);
  UPDATE api_keys SET permissions = substr(permissions, 1, length(permissions) - 1) || ',"audit:read"]'
   WHERE permissions LIKE '%"api_keys:manage"%' AND permissions NOT LIKE '%"audit:read"%';
  `,
  },
  {
    name: 'config text and long history entries compressed at rest',
    sqlite: `
  -- Brotli-compressed UTF-8 of the text; when set, yaml is empty. Rows written before keep
  -- their text in yaml until they are written again or converted in the background, which
  -- finds them by the index below (it empties as they are converted).
  ALTER TABLE configs ADD COLUMN yaml_packed BLOB;
  CREATE INDEX configs_unpacked ON configs(id) WHERE yaml_packed IS NULL;
  -- Brotli-compressed JSON of a long entry's operations, applied paths and text changes;
  -- when set, operations and applied_paths are empty.
  ALTER TABLE history ADD COLUMN entry_packed BLOB;
  `,
  },
  {
    name: 'retention: what pruning looks up, and the lease that lets one instance prune',
    sqlite: `
  -- Settled deliveries by age: pruning deletes them oldest first, in small batches.
  CREATE INDEX webhook_deliveries_settled ON webhook_deliveries(status, created_at);
  CREATE INDEX webhooks_deleted ON webhooks(deleted_at) WHERE deleted_at IS NOT NULL;

  -- A background job runs on the instance holding its lease until expires_at.
  CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at TEXT NOT NULL
  );
  `,
  },
  {
    name: 'label search through a trigram index',
    sqlite: `
  -- Every config's label cut into trigrams (folded to lower case): the configs whose label
  -- contains a text of three characters or more are found without reading every row. The
  -- triggers keep it in step with configs; the INSERT fills it for the rows already there.
  CREATE VIRTUAL TABLE configs_label_search USING fts5(label, config_id UNINDEXED, tokenize = 'trigram');
  INSERT INTO configs_label_search (label, config_id) SELECT label, id FROM configs;
  CREATE TRIGGER configs_label_search_insert AFTER INSERT ON configs BEGIN
    INSERT INTO configs_label_search (label, config_id) VALUES (new.label, new.id);
  END;
  -- Labels never change and configs are closed, not deleted; these keep it right if they do.
  CREATE TRIGGER configs_label_search_update AFTER UPDATE OF id, label ON configs BEGIN
    DELETE FROM configs_label_search WHERE config_id = old.id;
    INSERT INTO configs_label_search (label, config_id) VALUES (new.label, new.id);
  END;
  CREATE TRIGGER configs_label_search_delete AFTER DELETE ON configs BEGIN
    DELETE FROM configs_label_search WHERE config_id = old.id;
  END;
  `,
    // pg_trgm's GIN index serves ILIKE itself. Its operator class is named by the schema the
    // extension lives in, which may be another schema than this one (one extension per
    // database); CREATE INDEX fills the index for the rows already there.
    postgres: `
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  DO $$
  BEGIN
    EXECUTE format(
      'CREATE INDEX configs_label_trigrams ON configs USING gin (label %I.gin_trgm_ops)',
      (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'pg_trgm'));
  END $$;
  `,
  },
  ...SINCE_PEOPLE,
];

/**
 * SQLite's types in PostgreSQL's words. Timestamps are ISO 8601 text in both (byte for byte
 * what the API returns); JSON is text, not jsonb, which would reorder keys. configs gets a
 * seq, SQLite's rowid there: the tie-break of two configs made in the same millisecond.
 * Compressed bytes are a BLOB in SQLite and a BYTEA in PostgreSQL.
 */
const POSTGRES_REWRITES: readonly (readonly [string, string])[] = [
  ['seq INTEGER PRIMARY KEY AUTOINCREMENT', 'seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY'],
  ['valid INTEGER NOT NULL', 'valid BOOLEAN NOT NULL'],
  ['reset_approvals_on_edit INTEGER NOT NULL', 'reset_approvals_on_edit BOOLEAN NOT NULL'],
  [' BLOB;', ' BYTEA;'],
  ['cap REAL,', 'cap DOUBLE PRECISION,'],
  [
    'CREATE TABLE configs (\n    id TEXT PRIMARY KEY,',
    'CREATE TABLE configs (\n    seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,\n    id TEXT PRIMARY KEY,',
  ],
];

export const MIGRATIONS: readonly Migration[] = WRITTEN.map((migration) => ({
  ...migration,
  postgres:
    migration.postgres ??
    POSTGRES_REWRITES.reduce(
      (text, [sqlite, postgres]) => text.replaceAll(sqlite, postgres),
      migration.sqlite,
    ),
}));
