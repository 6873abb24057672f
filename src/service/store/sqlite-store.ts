/**
 * The Store on SQLite (better-sqlite3). Every method that writes runs in one transaction
 * (`BEGIN IMMEDIATE`, so two processes never deadlock upgrading a read lock).
 */
import type { ConfigKind } from '../../contract/config-edit';

import { DEFAULT_ACCOUNT_POLICY, type AccountPolicy } from '../../contract/reviews';

import type { LiveConfigStamp } from '../../configs/delivery-view';

import { SqliteLiveChanges } from '../delivery/live-changes-sqlite';

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

import type { SqliteDatabase } from './database';

import { RecentReading } from './recent-reading';

import { VersionedMemo } from './versioned-memo';

import type { DatabaseState } from './database-unavailable';

import type {
  AccountRecord,
  ApiKeyRecord,
  AuditRecord,
  ClientKeyRecord,
  ConfigRecordRow,
  HistoryRecord,
  NewConfig,
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

/** Principals kept at most (see findPrincipalByKeyHash); the cache is emptied when full. */
const MAX_CACHED_PRINCIPALS = 1_000;
/**
 * How stale another process's commit may look to a delivery read: a quarter of a
 * millisecond, under a loopback round trip. This process's own writes count at once.
 */
export const DELIVERY_VERSION_WINDOW_MS = 0.25;

export class SqliteStore implements Store {
  private readonly statements;
  /**
   * Principals by key hash, valid while the database is as it was when they were read: the
   * same `PRAGMA data_version` (no commit by another connection, e.g. the command line's
   * `keys revoke`) and the same count of this store's own writes (which data_version does
   * not count).
   */
  private readonly principals = new Map<string, Principal>();
  private principalsDataVersion = -1;
  private principalsOwnWrites = -1;
  /** Transactions run through this connection; every write goes through `write`. */
  private ownWrites = 0;
  /** Client keys with their account's live stamp, kept as principals are (see above). */
  private readonly deliveryKeys = new VersionedMemo<DeliveryKeyLookup>(MAX_CACHED_PRINCIPALS);
  /**
   * data_version for the delivery reads, read at most every DELIVERY_VERSION_WINDOW_MS:
   * polled delivery URLs are the service's hottest path, and the read is most of their cost.
   */
  private readonly deliveryDataVersion = new RecentReading(
    () => this.statements.dataVersion.get() as number,
    DELIVERY_VERSION_WINDOW_MS,
  );
  readonly liveChanges = new SqliteLiveChanges(() => this.statements.dataVersion.get() as number);
  private readonly deliveriesQueued = new DeliveriesQueued();

  constructor(private readonly db: SqliteDatabase) {
    this.statements = {
      insertAccount: db.prepare(
        'INSERT INTO accounts (id, name, account_type, idp_organization_id, created_at) VALUES (@id, @name, @account_type, @idp_organization_id, @created_at)',
      ),
      getAccount: db.prepare('SELECT * FROM accounts WHERE id = ?'),
      anyAccount: db.prepare('SELECT 1 FROM accounts LIMIT 1').pluck(),
      insertUser: db.prepare(
        'INSERT INTO users (id, account_id, email, role, idp_user_id, created_at) VALUES (@id, @account_id, @email, @role, @idp_user_id, @created_at)',
      ),
      getUser: db.prepare('SELECT * FROM users WHERE id = ?'),
      insertKey: db.prepare(
        'INSERT INTO api_keys (id, account_id, user_id, name, key_hash, obfuscated_value, permissions, created_at, last_used_at, expires_at, revoked_at) VALUES (@id, @account_id, @user_id, @name, @key_hash, @obfuscated_value, @permissions, @created_at, @last_used_at, @expires_at, @revoked_at)',
      ),
      listKeys: db.prepare(
        'SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at DESC, id DESC',
      ),
      getKey: db.prepare('SELECT * FROM api_keys WHERE account_id = ? AND id = ?'),
      findKey: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
      revokeKey: db.prepare(
        'UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL',
      ),
      touchKey: db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
      principal: db.prepare(
        `SELECT ${PRINCIPAL_COLUMNS}
           FROM api_keys k JOIN users u ON u.id = k.user_id JOIN accounts a ON a.id = k.account_id
          WHERE k.key_hash = ?`,
      ),
      listConfigs: db.prepare(
        `SELECT ${CONFIG_COLUMNS} FROM configs WHERE account_id = ? AND closed_at IS NULL ORDER BY created_at DESC, rowid DESC`,
      ),
      listConfigsOfKind: db.prepare(
        `SELECT ${CONFIG_COLUMNS} FROM configs WHERE account_id = ? AND kind = ? AND closed_at IS NULL ORDER BY created_at DESC, rowid DESC`,
      ),
      getConfig: db.prepare(
        `SELECT ${CONFIG_COLUMNS} FROM configs WHERE account_id = ? AND id = ? AND closed_at IS NULL`,
      ),
      getAnyConfig: db.prepare(
        'SELECT id, base_config_id FROM configs WHERE account_id = ? AND id = ?',
      ),
      insertConfig: db.prepare(
        `INSERT INTO configs (${CONFIG_COLUMNS}) VALUES (@id, @account_id, @kind, @label, @yaml, @revision, @base_config_id, @valid, @error_count, @warning_count, @issues, @created_at, @updated_at, @published_at, NULL, NULL, NULL)`,
      ),
      updateConfig: db.prepare(
        'UPDATE configs SET yaml = @yaml, revision = @revision, valid = @valid, error_count = @error_count, warning_count = @warning_count, issues = @issues, updated_at = @updated_at WHERE id = @id AND account_id = @account_id',
      ),
      closeConfig: db.prepare(
        'UPDATE configs SET closed_at = ?, closed_reason = ? WHERE account_id = ? AND id = ?',
      ),
      getLive: db.prepare('SELECT config_id FROM live_configs WHERE account_id = ?'),
      setLive: db.prepare(
        'INSERT INTO live_configs (account_id, config_id) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET config_id = excluded.config_id',
      ),
      insertHistory: db.prepare(
        'INSERT INTO history (account_id, config_id, action, at, revision, summary, api_key_id, api_key_name, actor_email, operations, applied_paths, text_changes) VALUES (@account_id, @config_id, @action, @at, @revision, @summary, @api_key_id, @api_key_name, @actor_email, @operations, @applied_paths, @text_changes)',
      ),
      historyOf: db.prepare(
        'SELECT * FROM history WHERE account_id = ? AND config_id = ? ORDER BY seq DESC',
      ),
      historyAfter: db.prepare(
        'SELECT * FROM history WHERE account_id = ? AND config_id = ? AND revision > ? ORDER BY seq',
      ),
      // Moves on another connection's commit (the command line's); this connection's own
      // writes are counted in `ownWrites` instead of a second query (total_changes()).
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      setReview: db.prepare('UPDATE configs SET review = ? WHERE account_id = ? AND id = ?'),
      getPolicy: db.prepare('SELECT * FROM account_policies WHERE account_id = ?'),
      setPolicy: db.prepare(
        'INSERT INTO account_policies (account_id, approvals_required, reset_approvals_on_edit, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET approvals_required = excluded.approvals_required, reset_approvals_on_edit = excluded.reset_approvals_on_edit, updated_at = excluded.updated_at',
      ),
      insertReview: db.prepare(
        `INSERT INTO reviews (${REVIEW_COLUMNS}) VALUES (@id, @account_id, @config_id, @verdict, @body, @line, @revision, @api_key_id, @reviewer, @at)`,
      ),
      listReviews: db.prepare(
        `SELECT ${REVIEW_COLUMNS} FROM reviews WHERE account_id = ? AND config_id = ? ORDER BY seq`,
      ),
      insertClientKey: db.prepare(
        `INSERT INTO client_keys (${CLIENT_KEY_COLUMNS}) VALUES (@id, @account_id, @name, @key, @apps, @created_at, @revoked_at)`,
      ),
      listClientKeys: db.prepare(
        `SELECT ${CLIENT_KEY_COLUMNS} FROM client_keys WHERE account_id = ? ORDER BY created_at DESC, id DESC`,
      ),
      getClientKey: db.prepare(
        `SELECT ${CLIENT_KEY_COLUMNS} FROM client_keys WHERE account_id = ? AND id = ?`,
      ),
      revokeClientKey: db.prepare(
        'UPDATE client_keys SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL',
      ),
      deliveryKey: db.prepare(`${DELIVERY_KEY_QUERY}?`),
      liveStamp: db.prepare(`${LIVE_STAMP_QUERY}?`),
      insertWebhook: db.prepare(
        `INSERT INTO webhooks (${WEBHOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      listWebhooks: db.prepare(
        `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, id DESC`,
      ),
      getWebhook: db.prepare(
        `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE account_id = ? AND id = ? AND deleted_at IS NULL`,
      ),
      deleteWebhook: db.prepare(
        'UPDATE webhooks SET deleted_at = ? WHERE account_id = ? AND id = ? AND deleted_at IS NULL',
      ),
      failPendingOf: db.prepare(
        "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_until = NULL, error = ? WHERE webhook_id = ? AND status = 'pending'",
      ),
      insertDelivery: db.prepare(
        `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      listDeliveries: db.prepare(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE account_id = ? AND webhook_id = ? ORDER BY seq DESC LIMIT ?`,
      ),
      getDelivery: db.prepare(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE account_id = ? AND webhook_id = ? AND id = ?`,
      ),
      retryDelivery: db.prepare(
        "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, lease_until = NULL WHERE id = ? AND status = 'failed'",
      ),
      dueHeads: db.prepare(
        `SELECT d.*, w.url AS w_url, w.secret AS w_secret FROM ${HEADS_FROM}
          WHERE ${dueHeadsWhere('@now')} ORDER BY d.seq LIMIT @limit`,
      ),
      lease: db.prepare('UPDATE webhook_deliveries SET lease_until = ? WHERE seq = ?'),
      recordAttempt: db.prepare(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = @at,
           status = @status, next_attempt_at = @next_attempt_at, response_status = @response_status,
           error = @error, lease_until = NULL
         WHERE id = @id AND status = 'pending'`,
      ),
      nextDue: db.prepare(NEXT_DUE_QUERY).pluck(),
      insertAudit: db.prepare(
        'INSERT INTO audit_log (account_id, at, action, actor, target_id, detail) VALUES (@account_id, @at, @action, @actor, @target_id, @detail)',
      ),
    };
  }

  private write<T>(work: () => T): T {
    try {
      return this.db.transaction(work).immediate();
    } finally {
      this.ownWrites += 1;
    }
  }

  private audit(entry: AuditRecord): void {
    this.statements.insertAudit.run({ ...entry, detail: JSON.stringify(entry.detail) });
  }

  private recordHistory(entry: HistoryRecord): void {
    this.statements.insertHistory.run({
      ...entry,
      operations: JSON.stringify(entry.operations),
      applied_paths: JSON.stringify(entry.applied_paths),
      text_changes: entry.text_changes ? JSON.stringify(entry.text_changes) : null,
    });
  }

  async hasAccounts(): Promise<boolean> {
    return this.statements.anyAccount.get() !== undefined;
  }

  async createAccount(input: NewAccount): Promise<void> {
    this.write(() => {
      this.statements.insertAccount.run(input.account);
      this.statements.insertUser.run(input.owner);
      this.statements.insertConfig.run(configParams(input.firstConfig));
      this.statements.setLive.run(input.account.id, input.firstConfig.id);
      this.recordHistory(input.history);
      this.audit(input.audit);
    });
  }

  async getAccount(id: string): Promise<AccountRecord | undefined> {
    return this.statements.getAccount.get(id) as AccountRecord | undefined;
  }

  async createUser(user: UserRecord, audit: AuditRecord): Promise<void> {
    this.write(() => {
      this.statements.insertUser.run(user);
      this.audit(audit);
    });
  }

  async getUser(id: string): Promise<UserRecord | undefined> {
    return this.statements.getUser.get(id) as UserRecord | undefined;
  }

  async insertApiKey(key: ApiKeyRecord, audit: AuditRecord): Promise<void> {
    this.write(() => {
      this.statements.insertKey.run({ ...key, permissions: JSON.stringify(key.permissions) });
      this.audit(audit);
    });
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return (this.statements.listKeys.all(accountId) as Row[]).map(toApiKey);
  }

  async findApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = this.statements.findKey.get(id) as Row | undefined;
    return row && toApiKey(row);
  }

  async revokeApiKey(
    accountId: string,
    id: string,
    at: string,
    audit: AuditRecord,
  ): Promise<ApiKeyRecord | undefined> {
    return this.write(() => {
      const changed = this.statements.revokeKey.run(at, accountId, id).changes > 0;
      if (changed) this.audit(audit);
      const row = this.statements.getKey.get(accountId, id) as Row | undefined;
      return row && toApiKey(row);
    });
  }

  /**
   * Every authenticated request asks this; the answer is cached until anything in the
   * database changes (a revocation by the command line included), so a revoked key still
   * fails on the very next request, and an unchanged database costs one cheap query.
   */
  async findPrincipalByKeyHash(keyHash: string): Promise<Principal | undefined> {
    return this.findPrincipalByKeyHashNow(keyHash);
  }

  findPrincipalByKeyHashNow(keyHash: string): Principal | undefined {
    const dataVersion = this.statements.dataVersion.get() as number;
    if (dataVersion !== this.principalsDataVersion || this.ownWrites !== this.principalsOwnWrites) {
      this.principals.clear();
      this.principalsDataVersion = dataVersion;
      this.principalsOwnWrites = this.ownWrites;
    }
    const cached = this.principals.get(keyHash);
    if (cached) return cached;
    const principal = this.readPrincipal(keyHash);
    // Unknown keys are not kept: inventing keys must not fill the memory.
    if (principal) {
      if (this.principals.size >= MAX_CACHED_PRINCIPALS) this.principals.clear();
      this.principals.set(keyHash, principal);
    }
    return principal;
  }

  private readPrincipal(keyHash: string): Principal | undefined {
    const row = this.statements.principal.get(keyHash) as Row | undefined;
    return row && toPrincipal(row);
  }

  async insertClientKey(key: ClientKeyRecord, audit: AuditRecord): Promise<void> {
    this.write(() => {
      this.statements.insertClientKey.run({ ...key, apps: appsColumn(key) });
      this.audit(audit);
    });
  }

  async listClientKeys(accountId: string): Promise<ClientKeyRecord[]> {
    return (this.statements.listClientKeys.all(accountId) as Row[]).map(toClientKey);
  }

  async revokeClientKey(
    accountId: string,
    id: string,
    at: string,
    audit: AuditRecord,
  ): Promise<ClientKeyRecord | undefined> {
    let changed = false;
    const revoked = this.write(() => {
      changed = this.statements.revokeClientKey.run(at, accountId, id).changes > 0;
      if (changed) this.audit(audit);
      const row = this.statements.getClientKey.get(accountId, id) as Row | undefined;
      return row && toClientKey(row);
    });
    // Its open streams end once this has committed (live changes).
    if (changed) this.liveChanges.committed(accountId);
    return revoked;
  }

  async findDeliveryKey(key: string): Promise<DeliveryKeyLookup | undefined> {
    return this.findDeliveryKeyNow(key);
  }

  /**
   * Every delivery request asks this; the answer is kept until anything in the database
   * changes: at once for this process's writes, within DELIVERY_VERSION_WINDOW_MS for
   * another process's (a publish or a revoke through a second instance on the file).
   */
  findDeliveryKeyNow(key: string): DeliveryKeyLookup | undefined {
    const version = this.deliveryDataVersion.get();
    return this.deliveryKeys.get(key, version, this.ownWrites, () => {
      const row = this.statements.deliveryKey.get(key) as Row | undefined;
      return row && toDeliveryKeyLookup(row);
    });
  }

  async getLiveStamp(accountId: string): Promise<LiveConfigStamp | undefined> {
    return toLiveStamp(this.statements.liveStamp.get(accountId) as Row | undefined);
  }

  async touchApiKey(id: string, at: string): Promise<void> {
    this.write(() => this.statements.touchKey.run(at, id));
  }

  async listConfigs(accountId: string, kind?: ConfigKind) {
    const rows = (
      kind
        ? this.statements.listConfigsOfKind.all(accountId, kind)
        : this.statements.listConfigs.all(accountId)
    ) as Row[];
    return { configs: rows.map(toConfig), liveId: this.liveId(accountId) };
  }

  async getConfig(accountId: string, id: string): Promise<ConfigRecordRow | undefined> {
    const row = this.statements.getConfig.get(accountId, id) as Row | undefined;
    return row && toConfig(row);
  }

  async getLiveId(accountId: string): Promise<string | undefined> {
    return this.liveId(accountId);
  }

  private liveId(accountId: string): string | undefined {
    return (this.statements.getLive.get(accountId) as { config_id: string } | undefined)?.config_id;
  }

  async history(accountId: string, configId: string): Promise<HistoryRecord[]> {
    // The line: this config, then the one it was copied from, and so on.
    const entries: HistoryRecord[] = [];
    const seen = new Set<string>();
    let id: string | null = configId;
    while (id !== null && !seen.has(id)) {
      seen.add(id);
      const row = this.statements.getAnyConfig.get(accountId, id) as
        { base_config_id: string | null } | undefined;
      if (!row) break;
      for (const entry of this.statements.historyOf.all(accountId, id) as Row[])
        entries.push(toHistory(entry));
      id = row.base_config_id;
    }
    return entries;
  }

  async historyAfter(
    accountId: string,
    configId: string,
    revision: number,
  ): Promise<HistoryRecord[]> {
    const rows = this.statements.historyAfter.all(accountId, configId, revision) as Row[];
    return rows.map(toHistory);
  }

  async changeConfigs<T>(
    accountId: string,
    reads: ConfigReads,
    work: (tx: ConfigTransaction) => T,
  ): Promise<T> {
    const s = this.statements;
    let liveAtStart: string | undefined;
    // Whether what apps read changed: another config made live, or the live one updated.
    let liveChanged = false;
    let queued = false;
    const tx: ConfigTransaction = {
      get: (id) => {
        checkDeclaredRead(reads, id, liveAtStart);
        const row = s.getConfig.get(accountId, id) as Row | undefined;
        return row && toConfig(row);
      },
      liveId: () => this.liveId(accountId),
      insert: (config) => {
        s.insertConfig.run(configParams({ ...config, account_id: accountId }));
      },
      update: (id, change) => {
        if (id === this.liveId(accountId)) liveChanged = true;
        s.updateConfig.run({
          ...change,
          valid: change.valid ? 1 : 0,
          issues: JSON.stringify(change.issues),
          id,
          account_id: accountId,
        });
      },
      close: (id, reason, at) => {
        s.closeConfig.run(at, reason, accountId, id);
      },
      setLive: (id) => {
        s.setLive.run(accountId, id);
        liveChanged = true;
      },
      addHistory: (entry) => this.recordHistory(entry),
      addAudit: (entry) => this.audit(entry),
      policy: () => this.policy(accountId),
      setReview: (id, review) => {
        s.setReview.run(JSON.stringify(review), accountId, id);
      },
      addReview: (review) => {
        s.insertReview.run(review);
      },
      addWebhookEvents: (type, at, data) => {
        const webhooks = (s.listWebhooks.all(accountId) as Row[]).map(toWebhook);
        for (const delivery of deliveriesOf(webhooks, type, at, data)) {
          s.insertDelivery.run(...deliveryValues(delivery));
          queued = true;
        }
      },
    };
    const result = this.write(() => {
      liveAtStart = this.liveId(accountId);
      queued = false;
      return work(tx);
    });
    if (liveChanged) this.liveChanges.committed(accountId);
    if (queued) this.deliveriesQueued.notify();
    return result;
  }

  async announceLiveChange(accountId: string): Promise<void> {
    this.liveChanges.committed(accountId);
  }

  private policy(accountId: string): AccountPolicy {
    const row = this.statements.getPolicy.get(accountId) as Row | undefined;
    return row ? toPolicy(row) : DEFAULT_ACCOUNT_POLICY;
  }

  async getPolicy(accountId: string): Promise<AccountPolicy> {
    return this.policy(accountId);
  }

  async setPolicy(
    accountId: string,
    policy: AccountPolicy,
    at: string,
    audit: AuditRecord,
  ): Promise<void> {
    this.write(() => {
      this.statements.setPolicy.run(
        accountId,
        policy.approvals_required,
        policy.reset_approvals_on_edit ? 1 : 0,
        at,
      );
      this.audit(audit);
    });
  }

  async listReviews(accountId: string, configId: string): Promise<ReviewRecord[]> {
    return (this.statements.listReviews.all(accountId, configId) as Row[]).map(toReview);
  }

  async insertWebhook(webhook: WebhookRecord, audit: AuditRecord): Promise<void> {
    this.write(() => {
      this.statements.insertWebhook.run(...webhookValues(webhook));
      this.audit(audit);
    });
  }

  async listWebhooks(accountId: string): Promise<WebhookRecord[]> {
    return (this.statements.listWebhooks.all(accountId) as Row[]).map(toWebhook);
  }

  async getWebhook(accountId: string, id: string): Promise<WebhookRecord | undefined> {
    const row = this.statements.getWebhook.get(accountId, id) as Row | undefined;
    return row && toWebhook(row);
  }

  async deleteWebhook(
    accountId: string,
    id: string,
    at: string,
    audit: AuditRecord,
  ): Promise<boolean> {
    return this.write(() => {
      if (this.statements.deleteWebhook.run(at, accountId, id).changes === 0) return false;
      this.statements.failPendingOf.run(ENDPOINT_DELETED_ERROR, id);
      this.audit(audit);
      return true;
    });
  }

  async listWebhookDeliveries(
    accountId: string,
    webhookId: string,
    limit: number,
  ): Promise<WebhookDeliveryRecord[]> {
    const rows = this.statements.listDeliveries.all(accountId, webhookId, limit) as Row[];
    return rows.map(toDelivery);
  }

  async insertWebhookDelivery(delivery: WebhookDeliveryRecord): Promise<void> {
    this.write(() => this.statements.insertDelivery.run(...deliveryValues(delivery)));
    this.deliveriesQueued.notify();
  }

  async retryWebhookDelivery(
    accountId: string,
    webhookId: string,
    deliveryId: string,
    at: string,
  ): Promise<RetryOutcome> {
    const outcome = this.write((): RetryOutcome => {
      const s = this.statements;
      const row = s.getDelivery.get(accountId, webhookId, deliveryId) as Row | undefined;
      if (!row) return { kind: 'not_found' };
      if (s.retryDelivery.run(at, deliveryId).changes === 0)
        return { kind: 'not_failed', delivery: toDelivery(row) };
      const retried = s.getDelivery.get(accountId, webhookId, deliveryId) as Row;
      return { kind: 'retried', delivery: toDelivery(retried) };
    });
    if (outcome.kind === 'retried') this.deliveriesQueued.notify();
    return outcome;
  }

  onDeliveriesQueued(listener: DeliveriesQueuedListener): () => void {
    return this.deliveriesQueued.subscribe(listener);
  }

  async claimDueDeliveries(now: string, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    const until = leaseEnd(now, leaseMs);
    // BEGIN IMMEDIATE: the select and the leases are one step for every process on the file.
    return this.write(() => {
      const heads = this.statements.dueHeads.all({ now, limit }) as Row[];
      for (const head of heads) this.statements.lease.run(until, head.seq);
      return heads.map(toDueDelivery);
    });
  }

  async recordDeliveryAttempt(id: string, result: AttemptResult): Promise<void> {
    this.write(() =>
      this.statements.recordAttempt.run({
        id,
        at: result.at,
        status: statusAfter(result),
        next_attempt_at: result.next_attempt_at,
        response_status: result.response_status,
        error: result.error,
      }),
    );
  }

  async nextDeliveryDue(): Promise<string | undefined> {
    return (this.statements.nextDue.get() as string | null) ?? undefined;
  }

  /** A read of the file: in WAL mode it does not wait for a writer, so it answers at once. */
  async checkHealth(): Promise<DatabaseState> {
    try {
      this.statements.anyAccount.get();
      return 'ok';
    } catch {
      return 'unavailable';
    }
  }

  async close(): Promise<void> {
    this.liveChanges.close();
    this.db.close();
  }
}

function configParams(config: NewConfig): Row {
  return { ...config, valid: config.valid ? 1 : 0, issues: JSON.stringify(config.issues) };
}
