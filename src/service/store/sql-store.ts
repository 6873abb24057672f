/**
 * The Store on either database: each method runs its aggregate's operation on the executor
 * (sql/sql.ts explains operations), as a read, a snapshot or a write. The people's and the
 * experiments' methods sit in parts of their own that it extends (sql-people-store.ts, then
 * sql-experiment-store.ts: one base class each, as TypeScript allows); SqliteStore and
 * PostgresStore add what only their database does.
 */
import type { PageRequest } from './pages';
import type { ConfigListFilter } from './configs/configs';
import * as auditLog from './audit/audit-log';
import type { AuditFilter } from './audit/audit-log';
import type { AccountPolicy } from '../../contract/reviews';
import * as accounts from './accounts/accounts';
import * as apiKeys from './api-keys/api-keys';
import * as clientKeys from './client-keys/client-keys';
import * as configs from './configs/configs';
import type { TextMemo } from './configs/stored-text';
import { unitOfWork } from './configs/unit-of-work';
import type { DatabaseState } from './health/database-health';
import type { LiveChanges } from './live-changes/live-changes';
import * as outbox from './outbox/outbox';
import { OutboxQueued, type OutboxQueuedListener } from './outbox/outbox-queued';
import type { AttemptResult } from './outbox/webhook-outbox';
import type {
  ApiKeyRecord,
  AuditRecord,
  ClientKeyRecord,
  PersonRecord,
  EventData,
  ScheduleRecord,
  UserRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
} from './records';
import * as retention from './retention/retention';
import * as reviews from './reviews/reviews';
import { SqlExperimentStore } from './sql-experiment-store';
import { liveChanged, type Executor } from './sql/sql';
import type { ConfigReads, ConfigTransaction, NewAccount, Store } from './store';
import * as webhooks from './webhooks/webhooks';
import type { WebhookEvent } from '../../contract/webhooks';
import * as environments from './environments/environments';
import * as schedules from './schedules/schedules';

export abstract class SqlStore extends SqlExperimentStore implements Store {
  protected abstract override readonly db: Executor;
  /** Whether the label search's index reads matches newest first (and needs no window). */
  protected abstract readonly labelIndex: configs.LabelIndexOrder;
  /** `texts`: what this store packed and unpacked lately (its own, never another store's). */
  constructor(protected readonly texts: TextMemo) {
    super();
  }

  abstract readonly liveChanges: LiveChanges;
  protected readonly outboxQueued = new OutboxQueued();

  abstract checkHealth(): Promise<DatabaseState>;
  abstract mergeLabelIndex(pages: number): Promise<boolean>;
  abstract close(): Promise<void>;

  hasAccounts() {
    return this.db.read(accounts.hasAccounts());
  }
  createAccount(input: NewAccount) {
    return this.db.write(accounts.createAccount(input, this.texts));
  }
  getAccount(id: string) {
    return this.db.read(accounts.getAccount(id));
  }
  createUser(user: UserRecord, person: PersonRecord, audit: AuditRecord) {
    return this.db.write(accounts.createUser(user, person, audit));
  }
  getUser(id: string) {
    return this.db.read(accounts.getUser(id));
  }

  insertApiKey(key: ApiKeyRecord, audit: AuditRecord, limit: number) {
    return this.db.write(apiKeys.insertApiKey(key, audit, limit));
  }
  listApiKeys(accountId: string, page: PageRequest) {
    return this.db.read(apiKeys.listApiKeys(accountId, page));
  }
  findApiKey(id: string) {
    return this.db.read(apiKeys.findApiKey(id));
  }
  revokeApiKey(accountId: string, id: string, at: string, audit: AuditRecord) {
    return this.db.write(apiKeys.revokeApiKey(accountId, id, at, audit));
  }
  findPrincipalByKeyHash(keyHash: string) {
    return this.db.read(apiKeys.findPrincipal(keyHash));
  }
  touchApiKey(id: string, at: string) {
    return this.db.writeOne(apiKeys.touchApiKey(id, at));
  }

  insertClientKey(key: ClientKeyRecord, audit: AuditRecord, limit: number) {
    return this.db.write(clientKeys.insertClientKey(key, audit, limit));
  }
  listClientKeys(accountId: string, page: PageRequest) {
    return this.db.read(clientKeys.listClientKeys(accountId, page));
  }
  revokeClientKey(accountId: string, id: string, at: string, audit: AuditRecord) {
    return this.db.write(clientKeys.revokeClientKey(accountId, id, at, audit));
  }
  findDeliveryKey(key: string) {
    return this.db.read(clientKeys.findDeliveryKey(key));
  }
  getLiveStamp(accountId: string) {
    return this.db.read(clientKeys.getLiveStamp(accountId));
  }
  getStreamStamp(accountId: string) {
    return this.db.read(clientKeys.getStreamStamp(accountId));
  }
  announceLiveChange(accountId: string) {
    return this.db.read(liveChanged(accountId));
  }

  /** One snapshot: a publish between two reads could show a live id not in the list. */
  listConfigs(accountId: string, filter: ConfigListFilter, page: PageRequest) {
    return this.db.snapshot(configs.listConfigs(accountId, filter, page, this.labelIndex));
  }
  getConfig(accountId: string, id: string) {
    return this.db.read(configs.getConfig(accountId, id, this.texts));
  }
  getLiveId(accountId: string) {
    return this.db.read(configs.liveIdOf(accountId));
  }
  history(accountId: string, configId: string, page: PageRequest) {
    return this.db.read(configs.history(accountId, configId, page, this.texts));
  }
  historyAfter(accountId: string, configId: string, revision: number) {
    return this.db.read(configs.historyAfter(accountId, configId, revision, this.texts));
  }
  changeConfigs<T>(accountId: string, reads: ConfigReads, work: (tx: ConfigTransaction) => T) {
    return this.db.write(unitOfWork(accountId, reads, work, this.texts));
  }

  getPolicy(accountId: string) {
    return this.db.read(reviews.getPolicy(accountId));
  }
  setPolicy(accountId: string, policy: AccountPolicy, at: string, audit: AuditRecord) {
    return this.db.write(reviews.setPolicy(accountId, policy, at, audit));
  }
  listReviews(accountId: string, configId: string, page: PageRequest) {
    return this.db.read(reviews.listReviews(accountId, configId, page));
  }

  insertWebhook(webhook: WebhookRecord, audit: AuditRecord, limit: number) {
    return this.db.write(webhooks.insertWebhook(webhook, audit, limit));
  }
  listWebhooks(accountId: string, page: PageRequest) {
    return this.db.read(webhooks.listWebhooks(accountId, page));
  }
  getWebhook(accountId: string, id: string) {
    return this.db.read(webhooks.getWebhook(accountId, id));
  }
  deleteWebhook(accountId: string, id: string, at: string, audit: AuditRecord) {
    return this.db.write(webhooks.deleteWebhook(accountId, id, at, audit));
  }

  listOutboxMessages(accountId: string, webhookId: string, page: PageRequest) {
    return this.db.read(outbox.listOutboxMessages(accountId, webhookId, page));
  }
  insertOutboxMessage(message: WebhookDeliveryRecord, audit?: AuditRecord) {
    return audit
      ? this.db.write(outbox.insertAuditedOutboxMessage(message, audit))
      : this.db.writeOne(outbox.insertOutboxMessages([message]));
  }
  retryOutboxMessage(
    accountId: string,
    webhookId: string,
    messageId: string,
    at: string,
    audit?: AuditRecord,
  ) {
    return this.db.write(outbox.retryOutboxMessage(accountId, webhookId, messageId, at, audit));
  }
  onOutboxQueued(listener: OutboxQueuedListener) {
    return this.outboxQueued.subscribe(listener);
  }

  listAudit(
    accountId: string,
    filter: AuditFilter,
    page: PageRequest,
    order: 'newestFirst' | 'oldestFirst' = 'newestFirst',
  ) {
    return this.db.read(auditLog.listAudit(accountId, filter, page, order));
  }
  claimDueOutbox(now: string, limit: number, leaseMs: number) {
    return this.db.write(outbox.claimDueOutbox(now, limit, leaseMs));
  }
  recordOutboxAttempt(id: string, result: AttemptResult) {
    return this.db.writeOne(outbox.recordOutboxAttempt(id, result));
  }
  nextOutboxDue() {
    return this.db.read(outbox.nextOutboxDue());
  }

  takeLease(name: string, holder: string, now: string, until: string) {
    return this.db.writeOne(retention.takeLease(name, holder, now, until));
  }
  releaseLease(name: string, holder: string) {
    return this.db.writeOne(retention.releaseLease(name, holder));
  }
  pruneDeliveries(status: 'delivered' | 'failed', before: string, limit: number) {
    return this.db.writeOne(retention.pruneDeliveries(status, before, limit));
  }
  pruneSessions(before: string, limit: number) {
    return this.db.writeOne(retention.pruneSessions(before, limit));
  }
  pruneDeletedWebhooks(before: string, limit: number) {
    return this.db.write(retention.pruneDeletedWebhooks(before, limit));
  }
  packOldConfigTexts(limit: number) {
    return retention.packOldConfigTexts(this.db, limit, this.texts);
  }

  accountsOfPerson(personId: string) {
    return this.db.read(environments.accountsOfPerson(personId));
  }
  accountMembershipOf(personId: string, accountId: string) {
    return this.db.read(environments.accountMembershipOf(personId, accountId));
  }
  isOrganizationOwner(organizationId: string, personId: string) {
    return this.db.read(environments.isOrganizationOwner(organizationId, personId));
  }
  organizationOwners(organizationId: string) {
    return this.db.read(environments.organizationOwners(organizationId));
  }
  addEnvironment(input: environments.NewEnvironment, limit: number) {
    return this.db.write(environments.addEnvironment(input, this.texts, limit));
  }
  nameOrganizationOwner(
    organizationId: string,
    personId: string,
    memberships: (accountId: string) => UserRecord,
    at: string,
    audit: AuditRecord,
  ) {
    return this.db.write(
      environments.nameOrganizationOwner(organizationId, personId, memberships, at, audit),
    );
  }
  updateAccount(
    id: string,
    change: { readonly name?: string; readonly protected?: boolean },
    audit: AuditRecord,
  ) {
    return this.db.write(environments.updateAccount(id, change, audit));
  }

  insertSchedule(schedule: ScheduleRecord, audit: AuditRecord, limit: number) {
    return this.db.write(schedules.insertSchedule(schedule, audit, limit));
  }
  getSchedule(accountId: string, id: string) {
    return this.db.read(schedules.getSchedule(accountId, id));
  }
  listSchedules(accountId: string, filter: schedules.ScheduleFilter, page: PageRequest) {
    return this.db.read(schedules.listSchedules(accountId, filter, page));
  }
  pendingSchedulesOf(accountId: string, configId: string) {
    return this.db.read(schedules.pendingSchedulesOf(accountId, configId));
  }
  cancelSchedule(accountId: string, id: string, at: string, audit: AuditRecord) {
    return this.db.write(schedules.cancelSchedule(accountId, id, at, audit));
  }
  dueSchedules(now: string, limit: number) {
    return this.db.read(schedules.dueSchedules(now, limit));
  }
  claimSchedule(id: string, holder: string, now: string, until: string) {
    return this.db.write(schedules.claimSchedule(id, holder, now, until));
  }
  failSchedule(
    schedule: ScheduleRecord,
    holder: string,
    outcome: schedules.ScheduleOutcome,
    audit: AuditRecord,
    event: { readonly type: WebhookEvent; readonly data: EventData },
  ) {
    return this.db.write(schedules.failSchedule(schedule, holder, outcome, audit, event));
  }
  nextRunAt() {
    return this.db.read(schedules.nextRunAt());
  }
}
