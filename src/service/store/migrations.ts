/**
 * Schema migrations, run at start-up in order, each in its own transaction. Each is written
 * once, in SQLite's words; PostgreSQL's text is made from it by the few rewrites below, so the
 * two cannot drift apart (a test compares the tables and columns they create). SQLite counts
 * those run in `PRAGMA user_version`, PostgreSQL in `schema_migrations`. Append new
 * migrations; never edit a shipped one (SQLite keeps each CREATE TABLE's text as written).
 * A migration that no rewrite can carry over (an index only one database has) gives
 * PostgreSQL's text beside SQLite's.
 */
export interface Migration {
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
}

type Written = Omit<Migration, 'postgres'> & { readonly postgres?: string };

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
  {
    name: 'people: organizations, people, memberships, sessions, invitations; api_keys:manage split',
    sqlite: `
  -- An organization holds accounts; its sign-in settings (NULL: the deployment's default).
  -- sso is the connection as JSON without its secret, which sits apart and is never read
  -- back out; sso_generation counts its changes, so that sessions made through an older
  -- connection end.
  CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    session_idle_minutes INTEGER,
    session_max_hours INTEGER,
    password_sign_in INTEGER NOT NULL DEFAULT 1,
    sso TEXT,
    sso_client_secret TEXT,
    sso_generation INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
  );
  INSERT INTO organizations (id, name, created_at)
    SELECT idp_organization_id, name, created_at FROM accounts;
  ALTER TABLE accounts ADD COLUMN organization_id TEXT REFERENCES organizations(id);
  UPDATE accounts SET organization_id = idp_organization_id;

  -- A person signs in: with an identity provider (issuer, subject) or a local password.
  CREATE TABLE people (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    email TEXT NOT NULL,
    name TEXT,
    issuer TEXT,
    subject TEXT,
    password_hash TEXT,
    created_at TEXT NOT NULL,
    last_sign_in_at TEXT,
    UNIQUE (issuer, subject),
    UNIQUE (organization_id, email)
  );
  -- Today's users are memberships: a person's role in an account. Each becomes a person.
  INSERT INTO people (id, organization_id, email, created_at)
    SELECT 'per_' || substr(u.id, 5), a.organization_id, u.email, u.created_at
      FROM users u JOIN accounts a ON a.id = u.account_id;
  ALTER TABLE users ADD COLUMN person_id TEXT REFERENCES people(id);
  ALTER TABLE users ADD COLUMN removed_at TEXT;
  UPDATE users SET person_id = 'per_' || substr(id, 5);
  CREATE INDEX users_by_person ON users(person_id);

  -- Only the SHA-256 of a session's cookie is kept; id is the public name of it.
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    person_id TEXT NOT NULL REFERENCES people(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    account_id TEXT NOT NULL REFERENCES accounts(id),
    api_key_id TEXT REFERENCES api_keys(id),
    method TEXT NOT NULL CHECK (method IN ('password', 'sso', 'api_key')),
    sso_generation INTEGER,
    id_token TEXT,
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    ip TEXT,
    user_agent TEXT,
    ended_at TEXT,
    end_reason TEXT
  );
  CREATE INDEX sessions_by_person ON sessions(person_id, created_at);
  CREATE INDEX sessions_open_by_user ON sessions(user_id) WHERE ended_at IS NULL;
  CREATE INDEX sessions_ended ON sessions(ended_at) WHERE ended_at IS NOT NULL;
  CREATE INDEX sessions_open_by_last_seen ON sessions(last_seen_at) WHERE ended_at IS NULL;

  CREATE TABLE invitations (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    email TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
    token_hash TEXT NOT NULL UNIQUE,
    created_by TEXT REFERENCES users(id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    accepted_at TEXT,
    accepted_by TEXT REFERENCES users(id),
    revoked_at TEXT
  );
  CREATE INDEX invitations_by_account ON invitations(account_id, created_at, id);

  -- Failed password sign-ins, for slowing further tries down: by email (its SHA-256, so
  -- strangers' addresses are not kept) and by client address. Pruned after a day.
  CREATE TABLE sign_in_failures (
    scope TEXT NOT NULL CHECK (scope IN ('email', 'ip')),
    subject TEXT NOT NULL,
    at TEXT NOT NULL
  );
  CREATE INDEX sign_in_failures_by_subject ON sign_in_failures(scope, subject, at);
  CREATE INDEX sign_in_failures_by_age ON sign_in_failures(at);

  -- Keys the service makes for itself once and every instance shares (the seal of the
  -- sign-in transaction cookie).
  CREATE TABLE service_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL
  );

  -- A key that could manage API keys also managed client keys, webhooks and the policy:
  -- it keeps those as permissions of their own, and admins' keys may manage members.
  UPDATE api_keys SET permissions = substr(permissions, 1, length(permissions) - 1) || ',"client_keys:manage","webhooks:manage","policy:manage"]'
   WHERE permissions LIKE '%"api_keys:manage"%';
  UPDATE api_keys SET permissions = substr(permissions, 1, length(permissions) - 1) || ',"members:manage"]'
   WHERE permissions LIKE '%"api_keys:manage"%'
     AND user_id IN (SELECT id FROM users WHERE role = 'admin');
  `,
  },
  {
    name: 'label search: each indexed label under its config rowid',
    sqlite: `
  -- The index's rows take their config's rowid (the order configs were stored in), so that
  -- a search reads the matches newest first and stops once a page is full, and the triggers
  -- find a config's row by rowid instead of reading every row.
  DROP TRIGGER configs_label_search_insert;
  DROP TRIGGER configs_label_search_update;
  DROP TRIGGER configs_label_search_delete;
  DELETE FROM configs_label_search;
  INSERT INTO configs_label_search (rowid, label, config_id) SELECT rowid, label, id FROM configs;
  CREATE TRIGGER configs_label_search_insert AFTER INSERT ON configs BEGIN
    INSERT INTO configs_label_search (rowid, label, config_id) VALUES (new.rowid, new.label, new.id);
  END;
  CREATE TRIGGER configs_label_search_update AFTER UPDATE OF id, label ON configs BEGIN
    DELETE FROM configs_label_search WHERE rowid = old.rowid;
    INSERT INTO configs_label_search (rowid, label, config_id) VALUES (new.rowid, new.label, new.id);
  END;
  CREATE TRIGGER configs_label_search_delete AFTER DELETE ON configs BEGIN
    DELETE FROM configs_label_search WHERE rowid = old.rowid;
  END;
  `,
    // PostgreSQL's pg_trgm index stays as it is: it cannot hand matches over in order.
    postgres: 'SELECT 1;',
  },
  {
    name: 'environments: account types, protected accounts, organization owners, schedules',
    sqlite: `
  -- An environment is one of an organization's accounts: production, staging or development.
  -- Accounts made before were the one account of their organization: production, and left
  -- unprotected, so that nobody is asked to type its name where nobody was before.
  ALTER TABLE accounts ADD COLUMN protected INTEGER NOT NULL DEFAULT 0;
  UPDATE accounts SET account_type = 'production'
   WHERE account_type NOT IN ('production', 'staging', 'development');

  -- Who may make the organization's accounts and act on any of them: the person who made the
  -- organization, and those they name. Before, that was the first admin of its account.
  CREATE TABLE organization_owners (
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    person_id TEXT NOT NULL REFERENCES people(id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (organization_id, person_id)
  );
  INSERT INTO organization_owners (organization_id, person_id, created_at)
    SELECT a.organization_id,
           (SELECT u.person_id FROM users u
             WHERE u.account_id = a.id AND u.role = 'admin' AND u.person_id IS NOT NULL
               AND u.removed_at IS NULL
             ORDER BY u.created_at, u.id LIMIT 1),
           a.created_at
      FROM accounts a
     WHERE EXISTS (SELECT 1 FROM users u
                    WHERE u.account_id = a.id AND u.role = 'admin' AND u.person_id IS NOT NULL
                      AND u.removed_at IS NULL)
    ON CONFLICT DO NOTHING;

  -- A publish or one A/B step at a time, run once by whichever instance claims it first; a
  -- claim lasts until claimed_until, after which another instance may take it over.
  CREATE TABLE schedules (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    config_id TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('publish', 'ab_test')),
    operations TEXT,
    summary TEXT,
    run_at TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id),
    api_key_id TEXT REFERENCES api_keys(id),
    status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled')),
    claimed_by TEXT,
    claimed_until TEXT,
    reason TEXT,
    result_config_id TEXT,
    created_at TEXT NOT NULL,
    finished_at TEXT
  );
  CREATE INDEX schedules_due ON schedules(run_at) WHERE status IN ('pending', 'running');
  CREATE INDEX schedules_by_account ON schedules(account_id, created_at);
  CREATE INDEX schedules_by_config ON schedules(config_id) WHERE status = 'pending';
  `,
  },
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
