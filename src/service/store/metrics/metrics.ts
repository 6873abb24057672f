/**
 * An account's metrics, by the id its A/B tests name them with. A handful per account (at
 * most LIMITS.metrics), so they are read whole, by id. Each change takes the account's
 * lock, so the limit holds and two updates of one metric never interleave.
 */
import { belowLimit, lockAccount } from '../accounts/accounts';
import { addAudit } from '../audit/audit-log';
import type { AuditRecord, MetricRecord } from '../records';
import {
  all,
  dialects,
  get,
  insertInto,
  pick,
  run,
  sql,
  valuesOf,
  type Op,
  type Row,
} from '../sql/sql';

const METRIC_COLUMNS = [
  'account_id',
  'id',
  'name',
  'kind',
  'event',
  'window_hours',
  'inverse',
  'cap',
  'created_at',
  'updated_at',
];
const METRICS_OF = `SELECT ${METRIC_COLUMNS.join(', ')} FROM metrics WHERE account_id = ?`;

// Ids in byte order on both: PostgreSQL's default collation would sort "a-b" after "ab".
const LIST_METRICS = dialects({
  sqlite: `${METRICS_OF} ORDER BY id`,
  postgres: `${METRICS_OF} ORDER BY id COLLATE "C"`,
});
const GET_METRIC = sql(`${METRICS_OF} AND id = ?`);
const COUNT_METRICS = sql('SELECT COUNT(*) AS n FROM metrics WHERE account_id = ?');
const INSERT_METRIC = insertInto('metrics', METRIC_COLUMNS);
const UPDATE_METRIC = sql(
  `UPDATE metrics SET name = ?, kind = ?, event = ?, window_hours = ?, inverse = ?, cap = ?,
          updated_at = ?
    WHERE account_id = ? AND id = ?`,
);
const DELETE_METRIC = sql('DELETE FROM metrics WHERE account_id = ? AND id = ?');

/** What an update may change; `cap: null` removes the cap. */
export type MetricChange = Partial<
  Pick<MetricRecord, 'name' | 'kind' | 'event' | 'window_hours' | 'inverse' | 'cap'>
>;

/** Why a metric was not created, or that it was. */
export type CreateMetricOutcome = 'created' | 'id_taken' | 'limit_reached';

function toMetric(row: Row): MetricRecord {
  return {
    ...pick<MetricRecord>(row, METRIC_COLUMNS),
    window_hours: Number(row.window_hours),
    // 0/1 in either database (an INTEGER column in both).
    inverse: Number(row.inverse) === 1,
    cap: row.cap === null || row.cap === undefined ? null : Number(row.cap),
  };
}

function columnsOf(metric: MetricRecord): unknown[] {
  return valuesOf({ ...metric, inverse: metric.inverse ? 1 : 0 }, METRIC_COLUMNS);
}

/** The account's metrics, by id. */
export function* listMetrics(accountId: string): Op<MetricRecord[]> {
  return (yield* all(LIST_METRICS, accountId)).map(toMetric);
}

export function* getMetric(accountId: string, id: string): Op<MetricRecord | undefined> {
  const row = yield* get(GET_METRIC, accountId, id);
  return row && toMetric(row);
}

/** Writes nothing unless the id is free and the account has fewer than `limit` metrics. */
export function* createMetric(
  metric: MetricRecord,
  audit: AuditRecord,
  limit: number,
): Op<CreateMetricOutcome> {
  const accountId = metric.account_id;
  yield* lockAccount(accountId);
  if (yield* get(GET_METRIC, accountId, metric.id)) return 'id_taken';
  if (!(yield* belowLimit(accountId, limit, COUNT_METRICS, accountId))) return 'limit_reached';
  yield* run(INSERT_METRIC, ...columnsOf(metric));
  yield* addAudit(audit);
  return 'created';
}

/** The metric as changed; undefined, writing nothing, when the account has no such metric. */
export function* updateMetric(
  accountId: string,
  id: string,
  change: MetricChange,
  at: string,
  audit: AuditRecord,
): Op<MetricRecord | undefined> {
  yield* lockAccount(accountId);
  const current = yield* getMetric(accountId, id);
  if (!current) return undefined;
  const updated: MetricRecord = { ...current, ...change, updated_at: at };
  const { name, kind, event, window_hours, inverse, cap } = updated;
  yield* run(
    UPDATE_METRIC,
    name,
    kind,
    event,
    window_hours,
    inverse ? 1 : 0,
    cap,
    at,
    accountId,
    id,
  );
  yield* addAudit(audit);
  return updated;
}

/** False, writing nothing, when the account has no such metric. */
export function* deleteMetric(accountId: string, id: string, audit: AuditRecord): Op<boolean> {
  yield* lockAccount(accountId);
  if ((yield* run(DELETE_METRIC, accountId, id)) === 0) return false;
  yield* addAudit(audit);
  return true;
}
