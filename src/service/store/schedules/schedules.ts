/**
 * Scheduled changes. A schedule is claimed by one instance at a time (a conditional UPDATE
 * from pending, or from a claim that expired); its success is written in the same unit of
 * work as the change itself, so a change runs and is marked done once, or neither.
 */
import type { WebhookEvent } from '../../../contract/webhooks';
import { addAudit } from '../audit/audit-log';
import { insertOutboxMessages } from '../outbox/outbox';
import { outboxMessagesOf } from '../outbox/outbox-records';
import type { Page, PageRequest } from '../pages';
import type { AuditRecord, EventData, ScheduleRecord, ScheduleRow } from '../records';
import { CREATED_KEY, createdKeyOf, keysetQuery, readPage } from '../sql/keyset';
import { all, get, insertInto, run, sql, valuesOf, type Op, type Row } from '../sql/sql';
import { allWebhooks } from '../webhooks/webhooks';

const COLUMNS = [
  'id',
  'account_id',
  'config_id',
  'action',
  'operations',
  'summary',
  'run_at',
  'user_id',
  'api_key_id',
  'status',
  'claimed_by',
  'claimed_until',
  'reason',
  'result_config_id',
  'created_at',
  'finished_at',
];
const INSERT_SCHEDULE = insertInto('schedules', COLUMNS);
const SCHEDULE_WITH_EMAIL = `SELECT s.*, u.email AS email FROM schedules s JOIN users u ON u.id = s.user_id`;
const GET_SCHEDULE = sql(`${SCHEDULE_WITH_EMAIL} WHERE s.account_id = ? AND s.id = ?`);
const COUNT_PENDING = sql(
  "SELECT count(*) AS pending FROM schedules WHERE account_id = ? AND status = 'pending'",
);
const listFilter = (cast: string) => `${SCHEDULE_WITH_EMAIL} WHERE s.account_id = ?
     AND (?${cast} IS NULL OR s.status = ?) AND (?${cast} IS NULL OR s.config_id = ?)`;
const LIST_SCHEDULES = keysetQuery(
  { sqlite: listFilter(''), postgres: listFilter('::text') },
  CREATED_KEY.map((column) => `s.${column}`),
  'DESC',
);
const PENDING_OF_CONFIG = sql(
  `${SCHEDULE_WITH_EMAIL} WHERE s.account_id = ? AND s.config_id = ? AND s.status = 'pending' ORDER BY s.run_at`,
);
/** Due now: pending ones, and running ones whose instance stopped renewing its claim. */
const DUE = sql(
  `SELECT id FROM schedules
    WHERE (status = 'pending' AND run_at <= ?) OR (status = 'running' AND claimed_until <= ?)
    ORDER BY run_at LIMIT ?`,
);
const CLAIM = sql(
  `UPDATE schedules SET status = 'running', claimed_by = ?, claimed_until = ?
    WHERE id = ? AND ((status = 'pending' AND run_at <= ?)
                      OR (status = 'running' AND claimed_until <= ?))`,
);
const GET_BY_ID = sql(`${SCHEDULE_WITH_EMAIL} WHERE s.id = ?`);
/** Only the claim's holder settles it: a holder that lost its claim changes nothing. */
const SETTLE = sql(
  `UPDATE schedules SET status = ?, reason = ?, result_config_id = ?, finished_at = ?,
          claimed_until = NULL
    WHERE id = ? AND status = 'running' AND claimed_by = ?`,
);
const CANCEL = sql(
  `UPDATE schedules SET status = 'cancelled', finished_at = ?
    WHERE account_id = ? AND id = ? AND status = 'pending'`,
);
const NEXT_RUN_AT = sql(
  "SELECT min(run_at) AS next FROM schedules WHERE status IN ('pending', 'running')",
);

export function toSchedule(row: Row): ScheduleRow {
  return {
    ...(row as unknown as ScheduleRow),
    operations:
      typeof row.operations === 'string'
        ? (JSON.parse(row.operations) as ScheduleRecord['operations'])
        : null,
  };
}

/** False, writing nothing, when the account already has `limit` pending schedules. */
export function* insertSchedule(
  schedule: ScheduleRecord,
  audit: AuditRecord,
  limit: number,
): Op<boolean> {
  const counted = yield* get(COUNT_PENDING, schedule.account_id);
  if (Number(counted?.pending ?? 0) >= limit) return false;
  const row = {
    ...schedule,
    operations: schedule.operations === null ? null : JSON.stringify(schedule.operations),
  };
  yield* run(INSERT_SCHEDULE, ...valuesOf(row, COLUMNS));
  yield* addAudit(audit);
  return true;
}

export function* getSchedule(accountId: string, id: string): Op<ScheduleRow | undefined> {
  const row = yield* get(GET_SCHEDULE, accountId, id);
  return row && toSchedule(row);
}

export function* getScheduleById(id: string): Op<ScheduleRow | undefined> {
  const row = yield* get(GET_BY_ID, id);
  return row && toSchedule(row);
}

export interface ScheduleFilter {
  readonly status?: ScheduleRecord['status'] | undefined;
  readonly configId?: string | undefined;
}

export function* listSchedules(
  accountId: string,
  filter: ScheduleFilter,
  page: PageRequest,
): Op<Page<ScheduleRow>> {
  const status = filter.status ?? null;
  const configId = filter.configId ?? null;
  return yield* readPage(
    LIST_SCHEDULES,
    [accountId, status, status, configId, configId],
    page,
    createdKeyOf,
    toSchedule,
  );
}

export function* pendingSchedulesOf(accountId: string, configId: string): Op<ScheduleRow[]> {
  return (yield* all(PENDING_OF_CONFIG, accountId, configId)).map(toSchedule);
}

/** Cancels a pending schedule; false when it is not pending (or not the account's). */
export function* cancelSchedule(
  accountId: string,
  id: string,
  at: string,
  audit: AuditRecord,
): Op<boolean> {
  if ((yield* run(CANCEL, at, accountId, id)) === 0) return false;
  yield* addAudit(audit);
  return true;
}

export function* dueSchedules(now: string, limit: number): Op<string[]> {
  return (yield* all(DUE, now, now, limit)).map((row) => row.id as string);
}

/** The schedule, claimed by `holder` until `until`; undefined when another holds it. */
export function* claimSchedule(
  id: string,
  holder: string,
  now: string,
  until: string,
): Op<ScheduleRow | undefined> {
  if ((yield* run(CLAIM, holder, until, id, now, now)) === 0) return undefined;
  return yield* getScheduleById(id);
}

export interface ScheduleOutcome {
  readonly status: 'done' | 'failed';
  readonly reason: string | null;
  readonly resultConfigId: string | null;
  readonly at: string;
}

/**
 * Marks the claimed schedule settled; throws when `holder` no longer holds it, so that the
 * unit of work it is part of leaves nothing behind.
 */
export function* settleSchedule(id: string, holder: string, outcome: ScheduleOutcome): Op<void> {
  const changed = yield* run(
    SETTLE,
    outcome.status,
    outcome.reason,
    outcome.resultConfigId,
    outcome.at,
    id,
    holder,
  );
  if (changed === 0) throw new ScheduleClaimLost(id);
}

/** A failure: the schedule settled failed, its audit record, and its webhook event. */
export function* failSchedule(
  schedule: ScheduleRecord,
  holder: string,
  outcome: ScheduleOutcome,
  audit: AuditRecord,
  event: { readonly type: WebhookEvent; readonly data: EventData },
): Op<void> {
  yield* settleSchedule(schedule.id, holder, outcome);
  yield* addAudit(audit);
  const webhooks = yield* allWebhooks(schedule.account_id);
  yield* insertOutboxMessages(outboxMessagesOf(webhooks, event.type, outcome.at, event.data));
}

export function* nextRunAt(): Op<string | null> {
  return ((yield* get(NEXT_RUN_AT))?.next as string | null | undefined) ?? null;
}

export class ScheduleClaimLost extends Error {
  constructor(readonly scheduleId: string) {
    super(`The claim on the schedule ${scheduleId} was lost to another instance`);
  }
}
