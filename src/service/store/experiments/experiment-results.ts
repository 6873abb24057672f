/**
 * What a refresh of an A/B test's results reads and writes: its exposed units a page at a
 * time with each metric's events inside the unit's window, the results it computed (the
 * latest per phase, and one row per day for the lift over time), and refresh requests.
 */
import { all, dialects, get, run, sql, type Op, type Sql } from '../sql/sql';

/** A metric as a refresh counts it: its event, and how long after first exposure. */
export interface CountedMetric {
  readonly event: string;
  readonly windowMs: number;
}

/** One exposed unit of a page, with each metric's event count and value sum, in order. */
export interface UnitEvents {
  readonly unit: string;
  readonly variant: string;
  /** Exposed to another variant of the phase too: two variants seen, kept out of results. */
  readonly multiple: boolean;
  readonly counts: number[];
  readonly sums: number[];
}

/**
 * The page's statement. The page of units is read first, in the primary key's order (a
 * range and a LIMIT: no scan of the phase's other units); then each metric gets a count and
 * a sum of its event's values from the unit's first exposure until its window closes, the
 * join reading the events index by unit.
 */
function unitPageStatement(metrics: readonly CountedMetric[]): Sql {
  const inWindow = 'm.event = ? AND m.at_ms < u.first_ms + ? AND m.at_ms <= ?';
  const columns = metrics
    .map(
      (_, index) =>
        `, count(CASE WHEN ${inWindow} THEN 1 END) AS c${index}` +
        `, coalesce(sum(CASE WHEN ${inWindow} THEN m.value END), 0) AS v${index}`,
    )
    .join('');
  const join =
    metrics.length === 0
      ? ''
      : `LEFT JOIN experiment_metric_events m
           ON m.account_id = u.account_id AND m.unit = u.unit
          AND m.event IN (${metrics.map(() => '?').join(', ')}) AND m.at_ms >= u.first_ms`;
  // Units only ever exposed to a variant assignment did not give them are mismatches alone.
  return sql(`SELECT u.unit, u.variant, u.exposed_wrong${columns}
      FROM (SELECT account_id, unit, variant, exposed_wrong, first_ms FROM experiment_units
             WHERE account_id = ? AND test_id = ? AND phase = ? AND unit > ?
               AND exposed_right = 1 AND first_ms <= ?
             ORDER BY unit LIMIT ?) u ${join}
     GROUP BY u.unit, u.variant, u.exposed_wrong ORDER BY u.unit`);
}

/** Where a page reads: a phase's units as they stood at `asOfMs`. */
export interface UnitPlace {
  readonly accountId: string;
  readonly testId: string;
  readonly phase: number;
  readonly asOfMs: number;
}

/** The exposed units of a phase after `afterUnit` ('' from the first), `limit` of them. */
export function* unitPage(
  place: UnitPlace,
  metrics: readonly CountedMetric[],
  afterUnit: string,
  limit: number,
): Op<UnitEvents[]> {
  const { asOfMs } = place;
  const windowParams = metrics.flatMap(({ event, windowMs }) => [
    event,
    windowMs,
    asOfMs,
    event,
    windowMs,
    asOfMs,
  ]);
  const rows = yield* all(
    unitPageStatement(metrics),
    ...windowParams,
    place.accountId,
    place.testId,
    place.phase,
    afterUnit,
    asOfMs,
    limit,
    ...metrics.map(({ event }) => event),
  );
  return rows.map((row) => ({
    unit: row.unit as string,
    variant: row.variant as string,
    multiple: Number(row.exposed_wrong) === 1,
    counts: metrics.map((_, index) => Number(row[`c${index}`])),
    sums: metrics.map((_, index) => Number(row[`v${index}`])),
  }));
}

const COUNT_MISMATCHES = sql(
  `SELECT count(*) AS mismatches FROM experiment_exposures
    WHERE account_id = ? AND test_id = ? AND phase = ? AND mismatch = 1`,
);

export function* mismatchesOf(accountId: string, testId: string, phase: number): Op<number> {
  return Number((yield* get(COUNT_MISMATCHES, accountId, testId, phase))?.mismatches ?? 0);
}

export interface ResultsRow {
  readonly phase: number;
  /** YYYY-MM-DD (UTC): the sums as they stood at that day's last computation. */
  readonly day: string;
  /** JSON the domain wrote (domain/experiments/results-sums.ts). */
  readonly sums: string;
  readonly computedAt: string;
}

const SAVE_RESULTS = sql(
  `INSERT INTO experiment_results (account_id, test_id, phase, day, sums, computed_at)
   VALUES (?, ?, ?, ?, ?, ?)
   ON CONFLICT (account_id, test_id, phase, day)
   DO UPDATE SET sums = excluded.sums, computed_at = excluded.computed_at`,
);
const RESULTS_OF_PHASE = sql(
  `SELECT phase, day, sums, computed_at FROM experiment_results
    WHERE account_id = ? AND test_id = ? AND phase = ? ORDER BY day`,
);
const LATEST_RESULTS = sql(
  `SELECT phase, day, sums, computed_at FROM experiment_results
    WHERE account_id = ? AND test_id = ? AND phase = ? ORDER BY day DESC LIMIT 1`,
);
const toResults = (row: Record<string, unknown>): ResultsRow => ({
  phase: Number(row.phase),
  day: row.day as string,
  sums: row.sums as string,
  computedAt: row.computed_at as string,
});

/** Keeps a computation, and forgets a refresh asked for before it started. */
export function* saveResults(
  accountId: string,
  testId: string,
  row: ResultsRow,
  startedAt: string,
): Op<void> {
  yield* run(SAVE_RESULTS, accountId, testId, row.phase, row.day, row.sums, row.computedAt);
  yield* run(SETTLE_REFRESH, accountId, testId, startedAt);
}

export function* resultsOfPhase(
  accountId: string,
  testId: string,
  phase: number,
): Op<ResultsRow[]> {
  return (yield* all(RESULTS_OF_PHASE, accountId, testId, phase)).map(toResults);
}

export function* latestResults(
  accountId: string,
  testId: string,
  phase: number,
): Op<ResultsRow | undefined> {
  const row = yield* get(LATEST_RESULTS, accountId, testId, phase);
  return row && toResults(row);
}

const REQUEST_REFRESH = sql(
  `INSERT INTO experiment_refreshes (account_id, test_id, requested_at) VALUES (?, ?, ?)
   ON CONFLICT (account_id, test_id) DO UPDATE SET requested_at = excluded.requested_at`,
);
const SETTLE_REFRESH = sql(
  'DELETE FROM experiment_refreshes WHERE account_id = ? AND test_id = ? AND requested_at <= ?',
);

export function* requestRefresh(accountId: string, testId: string, at: string): Op<void> {
  yield* run(REQUEST_REFRESH, accountId, testId, at);
}

/** A phase the job may compute, with when it last did and whether a refresh waits. */
export interface PhaseToCompute {
  readonly accountId: string;
  readonly testId: string;
  readonly phase: number;
  readonly endedAt: string | null;
  readonly computedAt: string | null;
  readonly refreshRequestedAt: string | null;
}

/**
 * The current phase of every test, and phases ended since `endedSince` (their last
 * computation must see the whole phase): the job picks the stale ones among them.
 */
const PHASES_TO_COMPUTE = sql(
  `SELECT p.account_id, p.test_id, p.number, p.ended_at,
          (SELECT max(r.computed_at) FROM experiment_results r
            WHERE r.account_id = p.account_id AND r.test_id = p.test_id AND r.phase = p.number)
            AS computed_at,
          (SELECT q.requested_at FROM experiment_refreshes q
            WHERE q.account_id = p.account_id AND q.test_id = p.test_id) AS requested_at
     FROM experiment_phases p
    WHERE p.ended_at IS NULL OR p.ended_at >= ?`,
);

export function* phasesToCompute(endedSince: string): Op<PhaseToCompute[]> {
  return (yield* all(PHASES_TO_COMPUTE, endedSince)).map((row) => ({
    accountId: row.account_id as string,
    testId: row.test_id as string,
    phase: Number(row.number),
    endedAt: (row.ended_at as string | null) ?? null,
    computedAt: (row.computed_at as string | null) ?? null,
    refreshRequestedAt: (row.requested_at as string | null) ?? null,
  }));
}

/** Raw events received before `beforeMs`, at most `limit` rows of each table per call. */
const pruneOldest = (table: string) =>
  dialects({
    sqlite: `DELETE FROM ${table} WHERE rowid IN
               (SELECT rowid FROM ${table} WHERE received_ms < ? ORDER BY received_ms LIMIT ?)`,
    postgres: `DELETE FROM ${table} WHERE ctid IN
                 (SELECT ctid FROM ${table} WHERE received_ms < ? ORDER BY received_ms LIMIT ?)`,
  });
const PRUNE_RAW = [
  pruneOldest('experiment_exposures'),
  pruneOldest('experiment_metric_events'),
  pruneOldest('experiment_event_ids'),
];

/** Deletes a batch of raw events older than the retention; how many rows went. */
export function* pruneExperimentEvents(beforeMs: number, limit: number): Op<number> {
  let deleted = 0;
  for (const statement of PRUNE_RAW) deleted += yield* run(statement, beforeMs, limit);
  return deleted;
}
