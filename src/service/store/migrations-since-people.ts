/**
 * The migrations from people signing in as themselves on: organizations, people, sessions
 * and invitations, the label index keyed by config rowid, environments and schedules.
 * Appended after the earlier ones (migrations.ts), in SQLite's words like them.
 */
import type { Written } from './migrations';

export const SINCE_PEOPLE: readonly Written[] = [
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
  {
    name: 'metrics: what an event means for an A/B test',
    sqlite: `
  -- An account's metrics, by the id A/B tests name them with in the config. window_hours:
  -- events count from a unit's first exposure until this many hours later; inverse (0/1):
  -- lower is better; cap: a unit's value above it counts as the cap.
  CREATE TABLE metrics (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('binomial', 'count', 'mean')),
    event TEXT NOT NULL,
    window_hours INTEGER NOT NULL,
    inverse INTEGER NOT NULL DEFAULT 0,
    cap REAL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (account_id, id)
  );
  `,
  },
  {
    name: 'experiments: event ids, exposures, metric events, exposed units, phases, results',
    sqlite: `
  -- Every event's client id, once: a repeated id is a duplicate whichever kind it names.
  CREATE TABLE experiment_event_ids (
    account_id TEXT NOT NULL,
    id TEXT NOT NULL,
    received_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, id)
  );
  CREATE INDEX experiment_event_ids_by_age ON experiment_event_ids(received_ms);

  -- Raw events, kept for the retention period; times in milliseconds since 1970 so that the
  -- windows of metrics are sums, not date arithmetic in two dialects.
  CREATE TABLE experiment_exposures (
    account_id TEXT NOT NULL,
    test_id TEXT NOT NULL,
    phase INTEGER NOT NULL,
    variant TEXT NOT NULL,
    unit TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    received_ms BIGINT NOT NULL,
    mismatch INTEGER NOT NULL
  );
  CREATE INDEX experiment_exposures_by_age ON experiment_exposures(received_ms);
  CREATE INDEX experiment_exposures_mismatches ON experiment_exposures(account_id, test_id, phase)
    WHERE mismatch = 1;

  CREATE TABLE experiment_metric_events (
    account_id TEXT NOT NULL,
    event TEXT NOT NULL,
    unit TEXT NOT NULL,
    value DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    received_ms BIGINT NOT NULL
  );
  CREATE INDEX experiment_metric_events_by_unit
    ON experiment_metric_events(account_id, unit, event, at_ms);
  CREATE INDEX experiment_metric_events_by_age ON experiment_metric_events(received_ms);

  -- One row per unit exposed in a phase: the variant assignment gives it, its first exposure,
  -- and whether it was exposed to that variant (right) and to another one (wrong): a unit
  -- with both saw two variants and is kept out of results. What a refresh reads.
  CREATE TABLE experiment_units (
    account_id TEXT NOT NULL,
    test_id TEXT NOT NULL,
    phase INTEGER NOT NULL,
    unit TEXT NOT NULL,
    variant TEXT NOT NULL,
    first_ms BIGINT NOT NULL,
    exposed_right INTEGER NOT NULL,
    exposed_wrong INTEGER NOT NULL,
    PRIMARY KEY (account_id, test_id, phase, unit)
  );

  -- A running test's weights as they went live; a change of weights starts the next phase.
  CREATE TABLE experiment_phases (
    account_id TEXT NOT NULL,
    test_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    weights TEXT NOT NULL,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    -- Its events were made up (the demo): its results say so.
    simulated INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, test_id, number)
  );

  -- What the background job computed: per phase the latest sums, and one row per day (the
  -- sums as they stood at that day's last computation) for the lift over time.
  CREATE TABLE experiment_results (
    account_id TEXT NOT NULL,
    test_id TEXT NOT NULL,
    phase INTEGER NOT NULL,
    day TEXT NOT NULL,
    sums TEXT NOT NULL,
    computed_at TEXT NOT NULL,
    PRIMARY KEY (account_id, test_id, phase, day)
  );
  CREATE TABLE experiment_refreshes (
    account_id TEXT NOT NULL,
    test_id TEXT NOT NULL,
    requested_at TEXT NOT NULL,
    PRIMARY KEY (account_id, test_id)
  );
  `,
  },
  {
    name: 'live since: when the live config became live, where a phase of its tests starts',
    sqlite: `
  -- Set when another config becomes live (a publish, a lifecycle step, an activation); the
  -- rows already there take their config's latest history entry that made it live.
  ALTER TABLE live_configs ADD COLUMN live_since TEXT;
  UPDATE live_configs SET live_since = COALESCE(
    (SELECT max(h.at) FROM history h
      WHERE h.config_id = live_configs.config_id
        AND h.action IN ('create', 'publish', 'activate', 'lifecycle', 'publish_on_approval')),
    (SELECT COALESCE(c.published_at, c.created_at) FROM configs c
      WHERE c.id = live_configs.config_id));
  `,
  },
];
