/**
 * The Store on PostgreSQL (node-postgres), for several service instances on one database.
 *
 * Every write runs in one transaction. Units of work on configs lock their account's row
 * (`SELECT ... FOR UPDATE`) first, so the edits of one account serialise across instances,
 * as SQLite's single writer serialises them in one process: a revision read inside the lock
 * is the latest, which is what makes If-Match hold across instances. `live_configs` has one
 * row per account, so there is exactly one live config whatever instances race.
 *
 * Principals are not cached: another instance may revoke a key at any moment, and the next
 * request must see it, so every request asks the database (one indexed query).
 */
import type { ConfigKind } from '../../contract/config-edit';
import { asDatabaseUnavailable, DatabaseHealth, type DatabaseState } from './database-unavailable';
import { inTransaction, type PostgresPool } from './postgres-database';
import type {
  AccountRecord,
  ApiKeyRecord,
  AuditRecord,
  ConfigRecordRow,
  HistoryRecord,
  NewConfig,
  Principal,
  UserRecord,
} from './records';
import {
  CONFIG_COLUMNS,
  PRINCIPAL_COLUMNS,
  toApiKey,
  toConfig,
  toHistory,
  toPrincipal,
  type Row,
} from './rows';
import {
  checkDeclaredRead,
  type ConfigReads,
  type ConfigTransaction,
  type NewAccount,
  type Store,
} from './store';

/** What a unit of work reads and runs queries on: a pooled client inside BEGIN. */
interface Queryable {
  query<R extends Row = Row>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

interface Statement {
  readonly text: string;
  readonly values: unknown[];
}

const SQL = {
  insertAccount:
    'INSERT INTO accounts (id, name, account_type, idp_organization_id, created_at) VALUES ($1, $2, $3, $4, $5)',
  insertUser:
    'INSERT INTO users (id, account_id, email, role, idp_user_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
  insertKey:
    'INSERT INTO api_keys (id, account_id, user_id, name, key_hash, obfuscated_value, permissions, created_at, last_used_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
  insertConfig: `INSERT INTO configs (${CONFIG_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULL, NULL)`,
  updateConfig:
    'UPDATE configs SET yaml = $3, revision = $4, valid = $5, error_count = $6, warning_count = $7, issues = $8, updated_at = $9 WHERE account_id = $1 AND id = $2',
  closeConfig:
    'UPDATE configs SET closed_at = $3, closed_reason = $4 WHERE account_id = $1 AND id = $2',
  setLive:
    'INSERT INTO live_configs (account_id, config_id) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET config_id = excluded.config_id',
  getLive: 'SELECT config_id FROM live_configs WHERE account_id = $1',
  insertHistory:
    'INSERT INTO history (account_id, config_id, action, at, revision, summary, api_key_id, api_key_name, actor_email, operations, applied_paths, text_changes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)',
  insertAudit:
    'INSERT INTO audit_log (account_id, at, action, actor, target_id, detail) VALUES ($1, $2, $3, $4, $5, $6)',
} as const;

function accountStatement(account: AccountRecord): Statement {
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

function userStatement(user: UserRecord): Statement {
  return {
    text: SQL.insertUser,
    values: [user.id, user.account_id, user.email, user.role, user.idp_user_id, user.created_at],
  };
}

function configStatement(config: NewConfig): Statement {
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

function historyStatement(entry: HistoryRecord): Statement {
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

function auditStatement(entry: AuditRecord): Statement {
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

async function run(client: Queryable, statements: readonly Statement[]): Promise<void> {
  for (const statement of statements) await client.query(statement.text, statement.values);
}

export class PostgresStore implements Store {
  private readonly health: DatabaseHealth;

  constructor(private readonly pool: PostgresPool) {
    this.health = new DatabaseHealth(() => pool.query('SELECT 1'));
  }

  private async query<R extends Row = Row>(text: string, values: unknown[] = []): Promise<R[]> {
    try {
      const { rows } = await this.pool.query<R>(text, values);
      this.health.answered();
      return rows;
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** Runs `work` in one transaction on one connection: all of it commits, or none. */
  private async transaction<T>(
    work: (client: Queryable) => Promise<T>,
    mode: '' | ' ISOLATION LEVEL REPEATABLE READ READ ONLY' = '',
  ): Promise<T> {
    try {
      const result = await inTransaction(this.pool, work, `BEGIN${mode}`);
      this.health.answered();
      return result;
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** A lost connection becomes a DatabaseUnavailable (a 503), and /health learns of it. */
  private failure(error: unknown): unknown {
    const unavailable = asDatabaseUnavailable(error);
    if (!unavailable) return error;
    this.health.failed();
    return unavailable;
  }

  checkHealth(): Promise<DatabaseState> {
    return this.health.check();
  }

  async hasAccounts(): Promise<boolean> {
    return (await this.query('SELECT 1 FROM accounts LIMIT 1')).length > 0;
  }

  async createAccount(input: NewAccount): Promise<void> {
    await this.transaction((client) =>
      run(client, [
        accountStatement(input.account),
        userStatement(input.owner),
        configStatement(input.firstConfig),
        { text: SQL.setLive, values: [input.account.id, input.firstConfig.id] },
        historyStatement(input.history),
        auditStatement(input.audit),
      ]),
    );
  }

  async getAccount(id: string): Promise<AccountRecord | undefined> {
    const [row] = await this.query('SELECT * FROM accounts WHERE id = $1', [id]);
    return row as AccountRecord | undefined;
  }

  async createUser(user: UserRecord, audit: AuditRecord): Promise<void> {
    await this.transaction((client) => run(client, [userStatement(user), auditStatement(audit)]));
  }

  async getUser(id: string): Promise<UserRecord | undefined> {
    const [row] = await this.query('SELECT * FROM users WHERE id = $1', [id]);
    return row as UserRecord | undefined;
  }

  async insertApiKey(key: ApiKeyRecord, audit: AuditRecord): Promise<void> {
    const values = [
      key.id,
      key.account_id,
      key.user_id,
      key.name,
      key.key_hash,
      key.obfuscated_value,
      JSON.stringify(key.permissions),
      key.created_at,
      key.last_used_at,
      key.expires_at,
      key.revoked_at,
    ];
    await this.transaction((client) =>
      run(client, [{ text: SQL.insertKey, values }, auditStatement(audit)]),
    );
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.query(
      'SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id DESC',
      [accountId],
    );
    return rows.map(toApiKey);
  }

  async findApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.query('SELECT * FROM api_keys WHERE id = $1', [id]);
    return row && toApiKey(row);
  }

  async revokeApiKey(
    accountId: string,
    id: string,
    at: string,
    audit: AuditRecord,
  ): Promise<ApiKeyRecord | undefined> {
    return this.transaction(async (client) => {
      const revoked = await client.query(
        'UPDATE api_keys SET revoked_at = $3 WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id',
        [accountId, id, at],
      );
      if (revoked.rows.length > 0) await run(client, [auditStatement(audit)]);
      const { rows } = await client.query(
        'SELECT * FROM api_keys WHERE account_id = $1 AND id = $2',
        [accountId, id],
      );
      return rows[0] && toApiKey(rows[0]);
    });
  }

  async findPrincipalByKeyHash(keyHash: string): Promise<Principal | undefined> {
    const [row] = await this.query(
      `SELECT ${PRINCIPAL_COLUMNS}
         FROM api_keys k JOIN users u ON u.id = k.user_id JOIN accounts a ON a.id = k.account_id
        WHERE k.key_hash = $1`,
      [keyHash],
    );
    return row && toPrincipal(row);
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    await this.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, at]);
  }

  async listConfigs(accountId: string, kind?: ConfigKind) {
    // One snapshot for the list and the live id: a publish between two reads could
    // otherwise show a live id that is not in the list.
    return this.transaction(async (client) => {
      const { rows } = await client.query(
        `SELECT ${CONFIG_COLUMNS} FROM configs
          WHERE account_id = $1 AND closed_at IS NULL AND ($2::text IS NULL OR kind = $2)
          ORDER BY created_at DESC, seq DESC`,
        [accountId, kind ?? null],
      );
      const live = await client.query(SQL.getLive, [accountId]);
      return {
        configs: rows.map(toConfig),
        liveId: live.rows[0]?.config_id as string | undefined,
      };
    }, ' ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  async getConfig(accountId: string, id: string): Promise<ConfigRecordRow | undefined> {
    const [row] = await this.query(
      `SELECT ${CONFIG_COLUMNS} FROM configs WHERE account_id = $1 AND id = $2 AND closed_at IS NULL`,
      [accountId, id],
    );
    return row && toConfig(row);
  }

  async getLiveId(accountId: string): Promise<string | undefined> {
    const [row] = await this.query(SQL.getLive, [accountId]);
    return row?.config_id as string | undefined;
  }

  async history(accountId: string, configId: string): Promise<HistoryRecord[]> {
    // The line: this config, then the one it was copied from, and so on (one round trip).
    const rows = await this.query(
      `WITH RECURSIVE line (id, base_config_id, depth) AS (
         SELECT id, base_config_id, 0 FROM configs WHERE account_id = $1 AND id = $2
         UNION ALL
         SELECT c.id, c.base_config_id, line.depth + 1
           FROM configs c JOIN line ON c.id = line.base_config_id
          WHERE c.account_id = $1 AND line.depth < 100000
       )
       SELECT h.* FROM history h JOIN line ON h.config_id = line.id
        WHERE h.account_id = $1
        ORDER BY line.depth, h.seq DESC`,
      [accountId, configId],
    );
    return rows.map(toHistory);
  }

  async historyAfter(
    accountId: string,
    configId: string,
    revision: number,
  ): Promise<HistoryRecord[]> {
    const rows = await this.query(
      'SELECT * FROM history WHERE account_id = $1 AND config_id = $2 AND revision > $3 ORDER BY seq',
      [accountId, configId, revision],
    );
    return rows.map(toHistory);
  }

  changeConfigs<T>(
    accountId: string,
    reads: ConfigReads,
    work: (tx: ConfigTransaction) => T,
  ): Promise<T> {
    return this.unitOfWork(accountId, reads, work);
  }

  changeConfigsWhileLocked<T>(
    accountId: string,
    reads: ConfigReads,
    work: (tx: ConfigTransaction) => Promise<T>,
  ): Promise<T> {
    return this.unitOfWork(accountId, reads, work);
  }

  private async unitOfWork<T>(
    accountId: string,
    reads: ConfigReads,
    work: (tx: ConfigTransaction) => T | Promise<T>,
  ): Promise<T> {
    return this.transaction(async (client) => {
      // Serialises this account's units of work across every instance.
      await client.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      const liveAtStart = (await client.query(SQL.getLive, [accountId])).rows[0]?.config_id as
        string | undefined;
      const ids = [...(reads.ids ?? []), ...(reads.live && liveAtStart ? [liveAtStart] : [])];
      const rows = new Map<string, ConfigRecordRow>();
      if (ids.length > 0) {
        const found = await client.query(
          `SELECT ${CONFIG_COLUMNS} FROM configs WHERE account_id = $1 AND id = ANY($2::text[]) AND closed_at IS NULL`,
          [accountId, ids],
        );
        for (const row of found.rows) rows.set(row.id as string, toConfig(row));
      }

      // The callback reads the rows loaded above and its writes are queued, then sent in
      // order in this transaction.
      let liveId = liveAtStart;
      const writes: Statement[] = [];
      const tx: ConfigTransaction = {
        get: (id) => {
          checkDeclaredRead(reads, id, liveAtStart);
          return rows.get(id);
        },
        liveId: () => liveId,
        insert: (config) => {
          writes.push(configStatement({ ...config, account_id: accountId }));
        },
        update: (id, change) => {
          writes.push({
            text: SQL.updateConfig,
            values: [
              accountId,
              id,
              change.yaml,
              change.revision,
              change.valid,
              change.error_count,
              change.warning_count,
              JSON.stringify(change.issues),
              change.updated_at,
            ],
          });
          const row = rows.get(id);
          if (row) rows.set(id, { ...row, ...change });
        },
        close: (id, reason, at) => {
          writes.push({ text: SQL.closeConfig, values: [accountId, id, at, reason] });
          rows.delete(id);
        },
        setLive: (id) => {
          writes.push({ text: SQL.setLive, values: [accountId, id] });
          liveId = id;
        },
        addHistory: (entry) => writes.push(historyStatement(entry)),
        addAudit: (entry) => writes.push(auditStatement(entry)),
      };
      const result = await work(tx);
      await run(client, writes);
      return result;
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
