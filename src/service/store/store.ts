/**
 * What the service needs from storage: routes and domain code depend on this interface, never
 * on a database. SqliteStore (the default) and PostgresStore (several instances) implement it.
 *
 * Changes to configs go through `changeConfigs`: a unit of work whose callback runs inside
 * one transaction and either completes or leaves nothing behind. Units of work of one
 * account never overlap, in this process or across processes and instances. The callback is
 * synchronous: the work inside (parse, apply, validate) is CPU work on rows read before it
 * runs, the rows it declares up front (`ConfigReads`); its writes are sent when it returns.
 * Reading a row that was not declared is a programming error, which a test on either catches.
 */
import type { ExperimentStore } from './experiments/experiment-store';
import type { SignInThrottleStore } from './sign-in-failures/sign-in-failures-store';
import type { PeopleStore } from './people/people-store';
import type { PruningStore } from './retention/pruning-store';
import type { EnvironmentStore, ScheduleStore } from './environments/environment-store';
import type { ScheduleOutcome } from './schedules/schedules';

import type { AccountPolicy } from '../../contract/reviews';

import type { WebhookEvent } from '../../contract/webhooks';

import type { Page, PageRequest } from './pages';
import type { ConfigListFilter } from './configs/configs';
import type { AuditFilter } from './audit/audit-log';
import type { DatabaseState } from './health/database-health';
import type { LiveChanges } from './live-changes/live-changes';
import type { RetryOutcome } from './outbox/outbox';
import type { OutboxQueuedListener } from './outbox/outbox-queued';
import type { WebhookOutbox } from './outbox/webhook-outbox';
import type { CreateMetricOutcome, MetricChange } from './metrics/metrics';

import type {
  AccountRecord,
  ApiKeyRecord,
  AuditRecord,
  ClientKeyRecord,
  ConfigRecordRow,
  ConfigSummaryRow,
  ConfigReview,
  DeliveryKeyLookup,
  EventData,
  HistoryRecord,
  NewConfig,
  OrganizationRecord,
  PersonRecord,
  KeyPrincipal,
  LiveStamp,
  MetricRecord,
  ReviewRecord,
  StoredAuditRecord,
  UserRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
} from './records';

/** The config rows a unit of work may read with `get`: these ids, and the live config. */
export interface ConfigReads {
  readonly ids?: readonly string[];
  readonly live?: boolean;
}

/** Throws unless `id` is one of the declared reads (the live config's id when `live`). */
export function checkDeclaredRead(
  reads: ConfigReads,
  id: string,
  liveId: string | undefined,
): void {
  if (reads.ids?.includes(id) || (reads.live === true && id === liveId)) return;
  throw new Error(`A unit of work read the config ${id} without declaring it in its reads`);
}

/**
 * A unit of work that may wait: what it reads meanwhile goes through its own connection,
 * never the pool's (with every connection held by such a unit, none would come).
 */
export interface LockedConfigTransaction extends ConfigTransaction {
  getConfig(id: string): Promise<ConfigRecordRow | undefined>;
  historyAfter(configId: string, revision: number): Promise<HistoryRecord[]>;
}

export interface ConfigTransaction {
  /** An open (not published-away or discarded) config of the account, one of the reads. */
  get(id: string): ConfigRecordRow | undefined;
  /** The live config's id: always readable. */
  liveId(): string | undefined;
  /** Inserts a config into the unit of work's account. */
  insert(config: Omit<NewConfig, 'account_id'>): void;
  update(
    id: string,
    change: Pick<
      ConfigRecordRow,
      'yaml' | 'revision' | 'valid' | 'error_count' | 'warning_count' | 'issues' | 'updated_at'
    >,
  ): void;
  close(id: string, reason: 'published' | 'discarded', at: string): void;
  /** `id` becomes live at `at` (a config already live keeps its time). */
  setLive(id: string, at: string): void;
  addHistory(entry: HistoryRecord): void;
  addAudit(entry: AuditRecord): void;
  /** The account's policy as it is in this unit of work: always readable. */
  policy(): AccountPolicy;
  /** Replaces the review of a config, one of the reads. */
  setReview(id: string, review: ConfigReview): void;
  addReview(review: ReviewRecord): void;
  /**
   * The outbox: one pending message of `type` per endpoint of the account (not deleted)
   * subscribed to it, written with this unit of work, so none is left by a rollback.
   * `data` is called only when some endpoint subscribes, at most once.
   */
  addWebhookEvents(type: WebhookEvent, at: string, data: EventData): void;
  /**
   * Marks a claimed schedule settled with this unit of work; the whole unit rolls back when
   * `holder` has lost its claim, so a scheduled change is never made twice.
   */
  settleSchedule(id: string, holder: string, outcome: ScheduleOutcome): void;
}

export interface NewAccount {
  readonly account: AccountRecord & { readonly protected: boolean };
  readonly organization: Pick<OrganizationRecord, 'id' | 'name' | 'created_at'>;
  readonly ownerPerson: PersonRecord;
  readonly owner: UserRecord;
  readonly firstConfig: NewConfig;
  readonly history: HistoryRecord;
  readonly audit: AuditRecord;
}

export interface Store
  extends
    WebhookOutbox,
    PruningStore,
    PeopleStore,
    SignInThrottleStore,
    EnvironmentStore,
    ScheduleStore,
    ExperimentStore {
  /** Whether any account exists (the demo account is made only in an empty database). */
  hasAccounts(): Promise<boolean>;
  createAccount(input: NewAccount): Promise<void>;
  getAccount(id: string): Promise<AccountRecord | undefined>;
  /**
   * A membership; its person is the organization's of the same email, else `person` (made
   * in the account's organization). Returns the user as written.
   */
  createUser(user: UserRecord, person: PersonRecord, audit: AuditRecord): Promise<UserRecord>;
  getUser(id: string): Promise<UserRecord | undefined>;

  /** False, writing nothing, when the key's person already has `limit` active keys. */
  insertApiKey(key: ApiKeyRecord, audit: AuditRecord, limit: number): Promise<boolean>;
  /** The account's API keys, revoked ones included, newest first. */
  listApiKeys(accountId: string, page: PageRequest): Promise<Page<ApiKeyRecord>>;
  /** Any account's key by id: for the operator's command line only. */
  findApiKey(id: string): Promise<ApiKeyRecord | undefined>;
  /** Sets revoked_at unless already set; undefined when the account has no such key. */
  revokeApiKey(
    accountId: string,
    id: string,
    at: string,
    audit: AuditRecord,
  ): Promise<ApiKeyRecord | undefined>;
  /** The key with this SHA-256, its user and account, whatever its state. */
  findPrincipalByKeyHash(keyHash: string): Promise<KeyPrincipal | undefined>;
  /**
   * The same lookup without a promise, in a store that answers without waiting on I/O
   * (SQLite); absent in one that must wait (PostgreSQL). Every authenticated request makes
   * this lookup, and each `await` on its way costs a turn of the microtask queue.
   */
  findPrincipalByKeyHashNow?(keyHash: string): KeyPrincipal | undefined;
  touchApiKey(id: string, at: string): Promise<void>;

  /** False, writing nothing, when the account already has `limit` keys not revoked. */
  insertClientKey(key: ClientKeyRecord, audit: AuditRecord, limit: number): Promise<boolean>;
  /** The account's client keys, revoked ones included, newest first. */
  listClientKeys(accountId: string, page: PageRequest): Promise<Page<ClientKeyRecord>>;
  /** Sets revoked_at unless already set; undefined when the account has no such key. */
  revokeClientKey(
    accountId: string,
    id: string,
    at: string,
    audit: AuditRecord,
  ): Promise<ClientKeyRecord | undefined>;
  /**
   * The client key with this value, whatever its state, with its account's live config
   * stamp, in one statement: every delivery request makes this lookup.
   */
  findDeliveryKey(key: string): Promise<DeliveryKeyLookup | undefined>;
  /** The same without a promise, in a store that answers without waiting on I/O (SQLite). */
  findDeliveryKeyNow?(key: string): DeliveryKeyLookup | undefined;
  /** The account's live config: id, revision, when it was published and became live; no text. */
  getLiveStamp(accountId: string): Promise<LiveStamp | undefined>;
  /**
   * A value that changes whenever what the account's event streams send may change (its
   * live config, a revoked client key), for telling which accounts another process's
   * commit concerns.
   */
  getStreamStamp(accountId: string): Promise<string>;

  /** Open configs newest first, without their text, and the live id of the same moment. */
  listConfigs(
    accountId: string,
    filter: ConfigListFilter,
    page: PageRequest,
  ): Promise<{ configs: Page<ConfigSummaryRow>; liveId: string | undefined }>;
  getConfig(accountId: string, id: string): Promise<ConfigRecordRow | undefined>;
  getLiveId(accountId: string): Promise<string | undefined>;
  /** History of a config and the configs it was copied from, newest first. */
  history(accountId: string, configId: string, page: PageRequest): Promise<Page<HistoryRecord>>;
  /** The entries of this config alone (not those it was copied from) after `revision`, oldest first. */
  historyAfter(accountId: string, configId: string, revision: number): Promise<HistoryRecord[]>;
  changeConfigs<T>(
    accountId: string,
    reads: ConfigReads,
    work: (tx: ConfigTransaction) => T,
  ): Promise<T>;
  /**
   * The same unit of work with a callback that may wait (for the edit pool) while the
   * account stays locked; absent in a store whose transactions cannot wait (SQLite). Use it
   * sparingly: it holds a connection and the account's lock for as long as the work takes.
   */
  changeConfigsWhileLocked?<T>(
    accountId: string,
    reads: ConfigReads,
    work: (tx: LockedConfigTransaction) => Promise<T>,
  ): Promise<T>;

  /** The account's policy; the default one when the account never set its own. */
  getPolicy(accountId: string): Promise<AccountPolicy>;
  setPolicy(
    accountId: string,
    policy: AccountPolicy,
    at: string,
    audit: AuditRecord,
  ): Promise<void>;
  /** The reviews of a config, oldest first. */
  listReviews(accountId: string, configId: string, page: PageRequest): Promise<Page<ReviewRecord>>;

  /**
   * Word, after commit, that what apps of an account read may have changed: a unit of work
   * that made another config live (publish, activate, an A/B step) or updated the live one,
   * in this process, another process on the same SQLite file, or another instance on the
   * same PostgreSQL database (`null`: some account, unknown which).
   */
  readonly liveChanges: LiveChanges;
  /**
   * Announces `accountId` to every listener of every instance, for a change made outside a
   * unit of work on configs (a client key revoked): after its commit.
   */
  announceLiveChange(accountId: string): Promise<void>;

  /** False, writing nothing, when the account already has `limit` endpoints not deleted. */
  insertWebhook(webhook: WebhookRecord, audit: AuditRecord, limit: number): Promise<boolean>;
  /** The account's endpoints, deleted ones left out, newest first. */
  listWebhooks(accountId: string, page: PageRequest): Promise<Page<WebhookRecord>>;
  /** An endpoint of the account, unless deleted. */
  getWebhook(accountId: string, id: string): Promise<WebhookRecord | undefined>;
  /**
   * Sets deleted_at (the row stays, for its outbox messages' sake) and fails its pending
   * messages with ENDPOINT_DELETED_ERROR, in one transaction; false: no such endpoint.
   */
  deleteWebhook(accountId: string, id: string, at: string, audit: AuditRecord): Promise<boolean>;
  /** An endpoint's outbox messages, newest first. */
  listOutboxMessages(
    accountId: string,
    webhookId: string,
    page: PageRequest,
  ): Promise<Page<WebhookDeliveryRecord>>;
  /** Queues a message made outside a unit of work (a test event), with its audit record. */
  insertOutboxMessage(message: WebhookDeliveryRecord, audit?: AuditRecord): Promise<void>;
  /**
   * A failed message back to pending, due at `at`, same id and attempts kept; `audit` is
   * written only when it was retried.
   */
  retryOutboxMessage(
    accountId: string,
    webhookId: string,
    messageId: string,
    at: string,
    audit?: AuditRecord,
  ): Promise<RetryOutcome>;
  /**
   * Calls `listener` in this process after each commit that queued outbox messages (see
   * OutboxQueued); returns the unsubscribe.
   */
  onOutboxQueued(listener: OutboxQueuedListener): () => void;

  /** The account's metrics, by id (byte order). */
  listMetrics(accountId: string): Promise<MetricRecord[]>;
  getMetric(accountId: string, id: string): Promise<MetricRecord | undefined>;
  /**
   * Writes the metric and its audit record, or nothing: `id_taken` when the account has a
   * metric of this id, `limit_reached` when it already has `limit` metrics.
   */
  createMetric(
    metric: MetricRecord,
    audit: AuditRecord,
    limit: number,
  ): Promise<CreateMetricOutcome>;
  /** The metric as changed, with its audit record; undefined, writing nothing, when absent. */
  updateMetric(
    accountId: string,
    id: string,
    change: MetricChange,
    at: string,
    audit: AuditRecord,
  ): Promise<MetricRecord | undefined>;
  /** Deletes the metric and writes its audit record; false, writing nothing, when absent. */
  deleteMetric(accountId: string, id: string, audit: AuditRecord): Promise<boolean>;

  /** The account's audit trail by the filter, newest first unless asked otherwise. */
  listAudit(
    accountId: string,
    filter: AuditFilter,
    page: PageRequest,
    order?: 'newestFirst' | 'oldestFirst',
  ): Promise<Page<StoredAuditRecord>>;

  /** Whether the database answers, for `GET /health`: bounded in time, cheap to call often. */
  checkHealth(): Promise<DatabaseState>;
  close(): Promise<void>;
}
