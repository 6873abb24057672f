/**
 * The unit of work on configs (`changeConfigs`), one algorithm for both dialects: lock the
 * account, read the declared rows, run the callback over them with its writes held back,
 * then send the writes in order before the commit. The callback itself never touches the
 * database, so SQLite runs it inside its synchronous transaction and PostgreSQL may await it.
 */
import type { WebhookEvent } from '../../../contract/webhooks';
import { addAudit, auditOfHistory } from '../audit/audit-log';
import { insertOutboxMessages } from '../outbox/outbox';
import { outboxMessagesOf } from '../outbox/outbox-records';
import type { ConfigRecordRow, EventData } from '../records';
import { addReview, setConfigReview, toPolicy } from '../reviews/reviews';
import { all, call, dialects, get, liveChanged, run, type Nested, type Op } from '../sql/sql';
import { checkDeclaredRead, type ConfigReads, type LockedConfigTransaction } from '../store';
import { settleSchedule } from '../schedules/schedules';
import { allWebhooks } from '../webhooks/webhooks';
import {
  addHistory,
  CLOSE_CONFIG,
  GET_CONFIGS,
  getConfig,
  historyAfter,
  insertConfig,
  liveIdOf,
  setLive,
  toConfig,
  UPDATE_CONFIG,
} from './configs';
import type { TextMemo } from './stored-text';

/**
 * Serialises the account's units of work (PostgreSQL: across instances; SQLite's
 * BEGIN IMMEDIATE already holds the file's write lock) and reads its policy on the way.
 */
const LOCK_ACCOUNT = dialects({
  sqlite: `SELECT p.approvals_required, p.reset_approvals_on_edit
             FROM accounts a LEFT JOIN account_policies p ON p.account_id = a.id
            WHERE a.id = ?`,
  postgres: `SELECT p.approvals_required, p.reset_approvals_on_edit
               FROM accounts a LEFT JOIN account_policies p ON p.account_id = a.id
              WHERE a.id = ? FOR UPDATE OF a`,
});

export function* unitOfWork<T>(
  accountId: string,
  reads: ConfigReads,
  work: (tx: LockedConfigTransaction) => T | Promise<T>,
  texts: TextMemo,
): Op<T> {
  const policy = toPolicy(yield* get(LOCK_ACCOUNT, accountId));
  const liveAtStart = yield* liveIdOf(accountId);
  const ids = [...(reads.ids ?? []), ...(reads.live && liveAtStart ? [liveAtStart] : [])];
  const rows = new Map<string, ConfigRecordRow>();
  if (ids.length > 0) {
    for (const row of yield* all(GET_CONFIGS, accountId, JSON.stringify(ids)))
      rows.set(row.id as string, toConfig(row, texts));
  }

  let liveId = liveAtStart;
  // Whether what apps read changed: another config made live, or the live one updated.
  let liveChange = false;
  const writes: Op<unknown>[] = [];
  const events: { type: WebhookEvent; at: string; data: EventData }[] = [];
  const transaction = (nested: Nested): LockedConfigTransaction => ({
    get: (id) => {
      checkDeclaredRead(reads, id, liveAtStart);
      return rows.get(id);
    },
    liveId: () => liveId,
    insert: (config) => writes.push(insertConfig({ ...config, account_id: accountId }, texts)),
    update: (id, change) => {
      if (id === liveId) liveChange = true;
      const { yaml, revision, valid, error_count, warning_count, updated_at } = change;
      const issues = JSON.stringify(change.issues);
      const { plain, packed } = texts.textColumns(yaml);
      writes.push(
        run(
          UPDATE_CONFIG,
          plain,
          packed,
          revision,
          valid,
          error_count,
          warning_count,
          issues,
          updated_at,
          accountId,
          id,
        ),
      );
      const row = rows.get(id);
      if (row) rows.set(id, { ...row, ...change });
    },
    close: (id, reason, at) => {
      writes.push(run(CLOSE_CONFIG, at, reason, accountId, id));
      rows.delete(id);
    },
    setLive: (id, at) => {
      writes.push(setLive(accountId, id, at));
      liveId = id;
      liveChange = true;
    },
    addHistory: (entry) => {
      writes.push(addHistory(entry, texts));
      writes.push(addAudit(auditOfHistory(entry)));
    },
    addAudit: (entry) => writes.push(addAudit(entry)),
    policy: () => policy,
    setReview: (id, review) => {
      writes.push(setConfigReview(accountId, id, review));
      const row = rows.get(id);
      if (row) rows.set(id, { ...row, review });
    },
    addReview: (review) => writes.push(addReview(review)),
    addWebhookEvents: (type, at, data) => events.push({ type, at, data }),
    settleSchedule: (id, holder, outcome) => writes.push(settleSchedule(id, holder, outcome)),
    getConfig: (id) => nested(getConfig(accountId, id, texts)),
    historyAfter: (configId, revision) =>
      nested(historyAfter(accountId, configId, revision, texts)),
  });
  const result = yield* call((nested) => work(transaction(nested)));

  for (const write of writes) yield* write;
  if (liveChange) yield* liveChanged(accountId);
  // Endpoints read under the account's lock: each event reaches the endpoints that exist
  // at commit.
  if (events.length > 0) {
    const webhooks = yield* allWebhooks(accountId);
    for (const { type, at, data } of events)
      yield* insertOutboxMessages(outboxMessagesOf(webhooks, type, at, data));
  }
  return result;
}
