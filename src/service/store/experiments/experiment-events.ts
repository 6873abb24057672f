/**
 * Experiment events in the store: each event's client id once (duplicates count once), raw
 * exposures and metric events, the exposed units a refresh reads, and each running test's
 * phases. Times are milliseconds since 1970 (BIGINT: node-postgres hands them back as text).
 */
import { all, dialects, get, run, sql, type Op, type Row } from '../sql/sql';

/** An event the domain has checked and placed: exposures carry their phase. */
export type StoredEvent =
  | {
      readonly kind: 'exposure';
      readonly id: string;
      readonly test: string;
      readonly phase: number;
      readonly variant: string;
      /** The variant assignment gives the unit in the phase. */
      readonly assigned: string;
      readonly unit: string;
      readonly atMs: number;
    }
  | {
      readonly kind: 'metric';
      readonly id: string;
      readonly event: string;
      readonly unit: string;
      readonly value: number;
      readonly atMs: number;
    };

export interface IngestCounts {
  readonly accepted: number;
  readonly duplicates: number;
}

const CLAIM_EVENT_ID = sql(
  'INSERT INTO experiment_event_ids (account_id, id, received_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
);
const INSERT_EXPOSURE = sql(
  `INSERT INTO experiment_exposures
     (account_id, test_id, phase, variant, unit, at_ms, received_ms, mismatch)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
);
const INSERT_METRIC_EVENT = sql(
  `INSERT INTO experiment_metric_events (account_id, event, unit, value, at_ms, received_ms)
   VALUES (?, ?, ?, ?, ?, ?)`,
);
/** A unit seen again: its first exposure may move earlier, and each kind of exposure marks it. */
const upsertUnit = (least: string, greatest: string) => `INSERT INTO experiment_units
     (account_id, test_id, phase, unit, variant, first_ms, exposed_right, exposed_wrong)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (account_id, test_id, phase, unit) DO UPDATE SET
     exposed_right = ${greatest}(experiment_units.exposed_right, excluded.exposed_right),
     exposed_wrong = ${greatest}(experiment_units.exposed_wrong, excluded.exposed_wrong),
     first_ms = ${least}(experiment_units.first_ms, excluded.first_ms)`;
const UPSERT_UNIT = dialects({
  sqlite: upsertUnit('MIN', 'MAX'),
  postgres: upsertUnit('LEAST', 'GREATEST'),
});

/** Stores a batch in one transaction; an id seen before stores nothing and counts apart. */
export function* ingestEvents(
  accountId: string,
  events: readonly StoredEvent[],
  receivedMs: number,
): Op<IngestCounts> {
  let accepted = 0;
  let duplicates = 0;
  for (const event of events) {
    if ((yield* run(CLAIM_EVENT_ID, accountId, event.id, receivedMs)) === 0) {
      duplicates += 1;
      continue;
    }
    accepted += 1;
    if (event.kind === 'metric') {
      yield* run(
        INSERT_METRIC_EVENT,
        accountId,
        event.event,
        event.unit,
        event.value,
        event.atMs,
        receivedMs,
      );
      continue;
    }
    const { test, phase, variant, assigned, unit, atMs } = event;
    const mismatch = variant !== assigned;
    yield* run(
      INSERT_EXPOSURE,
      accountId,
      test,
      phase,
      variant,
      unit,
      atMs,
      receivedMs,
      mismatch ? 1 : 0,
    );
    yield* run(
      UPSERT_UNIT,
      accountId,
      test,
      phase,
      unit,
      assigned,
      atMs,
      mismatch ? 0 : 1,
      mismatch ? 1 : 0,
    );
  }
  return { accepted, duplicates };
}

export interface PhaseRow {
  readonly testId: string;
  readonly number: number;
  /** Each variant's weight, in the test's order (the first is the control). */
  readonly weights: Readonly<Record<string, number>>;
  readonly startedAt: string;
  readonly endedAt: string | null;
  /** Its events were made up (the demo). */
  readonly simulated: boolean;
}

const toPhase = (row: Row): PhaseRow => ({
  testId: row.test_id as string,
  number: Number(row.number),
  weights: JSON.parse(row.weights as string) as Record<string, number>,
  startedAt: row.started_at as string,
  endedAt: (row.ended_at as string | null) ?? null,
  simulated: Number(row.simulated) === 1,
});

const PHASES_OF_TEST = sql(
  'SELECT * FROM experiment_phases WHERE account_id = ? AND test_id = ? ORDER BY number',
);
const OPEN_PHASES = sql(
  'SELECT * FROM experiment_phases WHERE account_id = ? AND ended_at IS NULL ORDER BY test_id',
);
const START_PHASE = sql(
  `INSERT INTO experiment_phases (account_id, test_id, number, weights, started_at)
   VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
);
const END_PHASE = sql(
  'UPDATE experiment_phases SET ended_at = ? WHERE account_id = ? AND test_id = ? AND number = ? AND ended_at IS NULL',
);
const LATEST_PHASE = sql(
  'SELECT * FROM experiment_phases WHERE account_id = ? AND test_id = ? ORDER BY number DESC LIMIT 1',
);

const MARK_SIMULATED = sql(
  'UPDATE experiment_phases SET simulated = 1 WHERE account_id = ? AND test_id = ? AND number = ?',
);

/** Marks a phase's events as made up: the demo's seeded results say so. */
export function* markSimulated(accountId: string, testId: string, phase: number): Op<void> {
  yield* run(MARK_SIMULATED, accountId, testId, phase);
}

export function* phasesOfTest(accountId: string, testId: string): Op<PhaseRow[]> {
  return (yield* all(PHASES_OF_TEST, accountId, testId)).map(toPhase);
}

/** A running test as it is live: its variants' weights in order. */
export interface RunningTest {
  readonly testId: string;
  readonly weights: Readonly<Record<string, number>>;
}

/**
 * Brings the phases in line with the live config, live since `at`: a running test without
 * an open phase, or whose weights differ from its open phase's, starts the next one at
 * `at`; an open phase of a test no longer running ends at `at`. A config live since before
 * a test's latest phase began (or ended) is older than what made that phase: it changes
 * nothing there, so a late reading never dates a phase back nor undoes a newer one. Answers
 * each running test's current phase number. Another instance doing the same at once is
 * harmless: the insert of a taken number does nothing.
 */
export function* syncPhases(
  accountId: string,
  running: readonly RunningTest[],
  at: string,
): Op<Map<string, number>> {
  const open = new Map<string, PhaseRow>();
  for (const row of yield* all(OPEN_PHASES, accountId)) {
    const phase = toPhase(row);
    open.set(phase.testId, phase);
  }
  const current = new Map<string, number>();
  for (const { testId, weights } of running) {
    const phase = open.get(testId);
    open.delete(testId);
    if (phase && sameWeights(phase.weights, weights)) {
      current.set(testId, phase.number);
      continue;
    }
    const latestRow = yield* get(LATEST_PHASE, accountId, testId);
    const latest = latestRow && toPhase(latestRow);
    if (latest && at < (latest.endedAt ?? latest.startedAt)) {
      if (phase) current.set(testId, phase.number);
      continue;
    }
    if (phase) yield* run(END_PHASE, at, accountId, testId, phase.number);
    const next = (latest?.number ?? 0) + 1;
    yield* run(START_PHASE, accountId, testId, next, JSON.stringify(weights), at);
    current.set(testId, next);
  }
  for (const phase of open.values()) {
    if (at >= phase.startedAt) yield* run(END_PHASE, at, accountId, phase.testId, phase.number);
  }
  return current;
}

function sameWeights(
  a: Readonly<Record<string, number>>,
  b: Readonly<Record<string, number>>,
): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key, index) => Object.keys(b)[index] === key && a[key] === b[key])
  );
}
