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

import { DEFAULT_ACCOUNT_POLICY, type AccountPolicy } from '../../contract/reviews';

import {
  liveChangeNotice,
  listenerClientFor,
  PostgresLiveChanges,
} from '../delivery/live-changes-postgres';

import { asDatabaseUnavailable, DatabaseHealth, type DatabaseState } from './database-unavailable';

import { inTransaction, type PostgresPool } from './postgres-database';

import type { LiveConfigStamp } from '../../configs/delivery-view';

import {
  appsColumn,
  CLIENT_KEY_COLUMNS,
  DELIVERY_KEY_QUERY,
  LIVE_STAMP_QUERY,
  toClientKey,
  toDeliveryKeyLookup,
  toLiveStamp,
  type DeliveryKeyLookup,
} from './client-key-rows';

import type {
  AccountRecord,
  ApiKeyRecord,
  AuditRecord,
  ClientKeyRecord,
  ConfigRecordRow,
  EventData,
  HistoryRecord,
  Principal,
  ReviewRecord,
  UserRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
} from './records';

import {
  CONFIG_COLUMNS,
  PRINCIPAL_COLUMNS,
  REVIEW_COLUMNS,
  toApiKey,
  toConfig,
  toHistory,
  toPolicy,
  toPrincipal,
  toReview,
  type Row,
} from './rows';

import {
  checkDeclaredRead,
  type ConfigReads,
  type ConfigTransaction,
  type NewAccount,
  type RetryOutcome,
  type Store,
} from './store';

import type { WebhookEvent } from '../../contract/webhooks';

import type { AttemptResult, DueDelivery } from '../webhooks/outbox';

import { DeliveriesQueued, type DeliveriesQueuedListener } from '../webhooks/deliveries-queued';

import { deliveriesOf, ENDPOINT_DELETED_ERROR } from '../webhooks/webhook-records';
import {
  DELIVERY_COLUMNS,
  deliveryValues,
  dueHeadsWhere,
  HEADS_FROM,
  leaseEnd,
  NEXT_DUE_QUERY,
  statusAfter,
  toDelivery,
  toDueDelivery,
  toWebhook,
  WEBHOOK_COLUMNS,
  webhookValues,
} from './webhook-rows';

const INSERT_DELIVERY = `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`;
const LIST_WEBHOOKS = `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE account_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC`;

/** What a unit of work reads and runs queries on: a pooled client inside BEGIN. */
interface Queryable {
  query<R extends Row = Row>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

import {
  accountStatement,
  auditStatement,
  configStatement,
  historyStatement,
  reviewStatement,
  SQL,
  userStatement,
  type Statement,
} from './postgres-statements';

async function run(client: Queryable, statements: readonly Statement[]): Promise<void> {
  for (const statement of statements) await client.query(statement.text, statement.values);
}

export class PostgresStore implements Store {
  private readonly health: DatabaseHealth;
  readonly liveChanges: PostgresLiveChanges;
  private readonly deliveriesQueued = new DeliveriesQueued();

  constructor(private readonly pool: PostgresPool) {
    this.health = new DatabaseHealth(() => pool.query('SELECT 1'));
    this.liveChanges = new PostgresLiveChanges(listenerClientFor(pool));
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

  async insertClientKey(key: ClientKeyRecord, audit: AuditRecord): Promise<void> {
    const values = [
      key.id,
      key.account_id,
      key.name,
      key.key,
      appsColumn(key),
      key.created_at,
      key.revoked_at,
    ];
    await this.transaction((client) =>
      run(client, [
        {
          text: `INSERT INTO client_keys (${CLIENT_KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          values,
        },
        auditStatement(audit),
      ]),
    );
  }

  async listClientKeys(accountId: string): Promise<ClientKeyRecord[]> {
    const rows = await this.query(
      `SELECT ${CLIENT_KEY_COLUMNS} FROM client_keys WHERE account_id = $1 ORDER BY created_at DESC, id DESC`,
      [accountId],
    );
    return rows.map(toClientKey);
  }

  async revokeClientKey(
    accountId: string,
    id: string,
    at: string,
    audit: AuditRecord,
  ): Promise<ClientKeyRecord | undefined> {
    return this.transaction(async (client) => {
      const revoked = await client.query(
        'UPDATE client_keys SET revoked_at = $3 WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id',
        [accountId, id, at],
      );
      // Its open streams end on every instance once this commits (live changes).
      if (revoked.rows.length > 0)
        await run(client, [auditStatement(audit), liveChangeNotice(accountId)]);
      const { rows } = await client.query(
        `SELECT ${CLIENT_KEY_COLUMNS} FROM client_keys WHERE account_id = $1 AND id = $2`,
        [accountId, id],
      );
      return rows[0] && toClientKey(rows[0]);
    });
  }

  /** Not cached: another instance may publish or revoke at any moment. */
  async findDeliveryKey(key: string): Promise<DeliveryKeyLookup | undefined> {
    const [row] = await this.query(`${DELIVERY_KEY_QUERY}$1`, [key]);
    return row && toDeliveryKeyLookup(row);
  }

  async getLiveStamp(accountId: string): Promise<LiveConfigStamp | undefined> {
    const [row] = await this.query(`${LIVE_STAMP_QUERY}$1`, [accountId]);
    return toLiveStamp(row);
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
      // Serialises this account's units of work across every instance; reads its policy on
      // the way (no row: the default).
      const locked = await client.query(
        `SELECT p.approvals_required, p.reset_approvals_on_edit
           FROM accounts a LEFT JOIN account_policies p ON p.account_id = a.id
          WHERE a.id = $1 FOR UPDATE OF a`,
        [accountId],
      );
      const lockedRow = locked.rows[0];
      const policy =
        lockedRow && lockedRow.approvals_required !== null
          ? toPolicy(lockedRow)
          : DEFAULT_ACCOUNT_POLICY;
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
      // Whether what apps read changed: another config made live, or the live one updated.
      let liveChanged = false;
      const writes: Statement[] = [];
      const events: { type: WebhookEvent; at: string; data: EventData }[] = [];
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
          if (id === liveId) liveChanged = true;
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
          liveChanged = true;
        },
        addHistory: (entry) => writes.push(historyStatement(entry)),
        addAudit: (entry) => writes.push(auditStatement(entry)),
        policy: () => policy,
        setReview: (id, review) => {
          writes.push({ text: SQL.setReview, values: [accountId, id, JSON.stringify(review)] });
          const row = rows.get(id);
          if (row) rows.set(id, { ...row, review });
        },
        addReview: (review) => writes.push(reviewStatement(review)),
        addWebhookEvents: (type, at, data) => events.push({ type, at, data }),
      };
      const result = await work(tx);
      // Sent on commit only: listeners on every instance hear of it then, never of a rollback.
      if (liveChanged) writes.push(liveChangeNotice(accountId));
      // The outbox, read under the account's lock: endpoints change only in other statements
      // that commit before or after this one, so each event reaches exactly the endpoints
      // that exist at commit.
      let queued = 0;
      if (events.length > 0) {
        const webhooks = (await client.query(LIST_WEBHOOKS, [accountId])).rows.map(toWebhook);
        for (const event of events) {
          for (const delivery of deliveriesOf(webhooks, event.type, event.at, event.data)) {
            writes.push({ text: INSERT_DELIVERY, values: deliveryValues(delivery) });
            queued += 1;
          }
        }
      }
      await run(client, writes);
      return { result, queued };
    }).then(({ result, queued }) => {
      if (queued > 0) this.deliveriesQueued.notify();
      return result;
    });
  }

  async getPolicy(accountId: string): Promise<AccountPolicy> {
    const [row] = await this.query('SELECT * FROM account_policies WHERE account_id = $1', [
      accountId,
    ]);
    return row ? toPolicy(row) : DEFAULT_ACCOUNT_POLICY;
  }

  async setPolicy(
    accountId: string,
    policy: AccountPolicy,
    at: string,
    audit: AuditRecord,
  ): Promise<void> {
    await this.transaction((client) =>
      run(client, [
        {
          text: `INSERT INTO account_policies (account_id, approvals_required, reset_approvals_on_edit, updated_at)
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT (account_id) DO UPDATE SET approvals_required = excluded.approvals_required,
                   reset_approvals_on_edit = excluded.reset_approvals_on_edit, updated_at = excluded.updated_at`,
          values: [accountId, policy.approvals_required, policy.reset_approvals_on_edit, at],
        },
        auditStatement(audit),
      ]),
    );
  }

  async listReviews(accountId: string, configId: string): Promise<ReviewRecord[]> {
    const rows = await this.query(
      `SELECT ${REVIEW_COLUMNS} FROM reviews WHERE account_id = $1 AND config_id = $2 ORDER BY seq`,
      [accountId, configId],
    );
    return rows.map(toReview);
  }

  async insertWebhook(webhook: WebhookRecord, audit: AuditRecord): Promise<void> {
    await this.transaction((client) =>
      run(client, [
        {
          text: `INSERT INTO webhooks (${WEBHOOK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          values: webhookValues(webhook),
        },
        auditStatement(audit),
      ]),
    );
  }

  async listWebhooks(accountId: string): Promise<WebhookRecord[]> {
    return (await this.query(LIST_WEBHOOKS, [accountId])).map(toWebhook);
  }

  async getWebhook(accountId: string, id: string): Promise<WebhookRecord | undefined> {
    const [row] = await this.query(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [accountId, id],
    );
    return row && toWebhook(row);
  }

  async deleteWebhook(
    accountId: string,
    id: string,
    at: string,
    audit: AuditRecord,
  ): Promise<boolean> {
    return this.transaction(async (client) => {
      const deleted = await client.query(
        'UPDATE webhooks SET deleted_at = $3 WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id',
        [accountId, id, at],
      );
      if (deleted.rows.length === 0) return false;
      await run(client, [
        {
          text: "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_until = NULL, error = $2 WHERE webhook_id = $1 AND status = 'pending'",
          values: [id, ENDPOINT_DELETED_ERROR],
        },
        auditStatement(audit),
      ]);
      return true;
    });
  }

  async listWebhookDeliveries(
    accountId: string,
    webhookId: string,
    limit: number,
  ): Promise<WebhookDeliveryRecord[]> {
    const rows = await this.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE account_id = $1 AND webhook_id = $2 ORDER BY seq DESC LIMIT $3`,
      [accountId, webhookId, limit],
    );
    return rows.map(toDelivery);
  }

  async insertWebhookDelivery(delivery: WebhookDeliveryRecord): Promise<void> {
    await this.query(INSERT_DELIVERY, deliveryValues(delivery));
    this.deliveriesQueued.notify();
  }

  async retryWebhookDelivery(
    accountId: string,
    webhookId: string,
    deliveryId: string,
    at: string,
  ): Promise<RetryOutcome> {
    const outcome = await this.transaction(async (client): Promise<RetryOutcome> => {
      const retried = await client.query(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $4, lease_until = NULL
          WHERE account_id = $1 AND webhook_id = $2 AND id = $3 AND status = 'failed'
          RETURNING ${DELIVERY_COLUMNS}`,
        [accountId, webhookId, deliveryId, at],
      );
      if (retried.rows[0]) return { kind: 'retried', delivery: toDelivery(retried.rows[0]) };
      const { rows } = await client.query(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE account_id = $1 AND webhook_id = $2 AND id = $3`,
        [accountId, webhookId, deliveryId],
      );
      return rows[0]
        ? { kind: 'not_failed', delivery: toDelivery(rows[0]) }
        : { kind: 'not_found' };
    });
    if (outcome.kind === 'retried') this.deliveriesQueued.notify();
    return outcome;
  }

  onDeliveriesQueued(listener: DeliveriesQueuedListener): () => void {
    return this.deliveriesQueued.subscribe(listener);
  }

  /**
   * One transaction: the due heads are locked (SKIP LOCKED: rows another instance is claiming
   * are passed over, not waited for) and leased before it commits, so no two instances get
   * the same delivery; once committed, the lease keeps the row from every other claim.
   */
  async claimDueDeliveries(now: string, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    return this.transaction(async (client) => {
      const heads = await client.query(
        `SELECT d.seq FROM ${HEADS_FROM} WHERE ${dueHeadsWhere('$1')}
          ORDER BY d.seq LIMIT $2 FOR UPDATE OF d SKIP LOCKED`,
        [now, limit],
      );
      if (heads.rows.length === 0) return [];
      const { rows } = await client.query(
        `UPDATE webhook_deliveries d SET lease_until = $2 FROM webhooks w
          WHERE d.seq = ANY($1::bigint[]) AND w.id = d.webhook_id
          RETURNING d.*, w.url AS w_url, w.secret AS w_secret`,
        [heads.rows.map((row) => row.seq), leaseEnd(now, leaseMs)],
      );
      return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map(toDueDelivery);
    });
  }

  async recordDeliveryAttempt(id: string, result: AttemptResult): Promise<void> {
    await this.query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = $2, status = $3,
         next_attempt_at = $4, response_status = $5, error = $6, lease_until = NULL
       WHERE id = $1 AND status = 'pending'`,
      [
        id,
        result.at,
        statusAfter(result),
        result.next_attempt_at,
        result.response_status,
        result.error,
      ],
    );
  }

  async nextDeliveryDue(): Promise<string | undefined> {
    const [row] = await this.query(NEXT_DUE_QUERY);
    return (row?.due as string | null | undefined) ?? undefined;
  }

  async announceLiveChange(accountId: string): Promise<void> {
    const notice = liveChangeNotice(accountId);
    await this.query(notice.text, notice.values);
  }

  async close(): Promise<void> {
    await this.liveChanges.close();
    await this.pool.end();
  }
}
