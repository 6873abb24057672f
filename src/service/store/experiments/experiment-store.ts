/** What experiment events and results ask of the store (the SQL is beside this file). */
import type { IngestCounts, PhaseRow, RunningTest, StoredEvent } from './experiment-events';
import type {
  CountedMetric,
  PhaseToCompute,
  ResultsRow,
  UnitEvents,
  UnitPlace,
} from './experiment-results';

export interface ExperimentStore {
  /** One batch in one transaction; an id the account sent before is a duplicate. */
  ingestEvents(
    accountId: string,
    events: readonly StoredEvent[],
    receivedMs: number,
  ): Promise<IngestCounts>;
  /**
   * Phases in line with the running tests of a config live since `at`, the current number
   * of each: a test whose weights changed starts its next phase at `at`
   * (domain/experiments/live-tests.ts asks on its first read of a live config;
   * experiment-events.ts keeps the phases).
   */
  syncPhases(
    accountId: string,
    running: readonly RunningTest[],
    at: string,
  ): Promise<Map<string, number>>;
  phasesOfTest(accountId: string, testId: string): Promise<PhaseRow[]>;
  /** The demo's seeded phase: its results say they are simulated. */
  markSimulated(accountId: string, testId: string, phase: number): Promise<void>;
  unitPage(
    place: UnitPlace,
    metrics: readonly CountedMetric[],
    afterUnit: string,
    limit: number,
  ): Promise<UnitEvents[]>;
  mismatchesOf(accountId: string, testId: string, phase: number): Promise<number>;
  saveResults(accountId: string, testId: string, row: ResultsRow, startedAt: string): Promise<void>;
  resultsOfPhase(accountId: string, testId: string, phase: number): Promise<ResultsRow[]>;
  latestResults(accountId: string, testId: string, phase: number): Promise<ResultsRow | undefined>;
  requestRefresh(accountId: string, testId: string, at: string): Promise<void>;
  phasesToCompute(endedSince: string): Promise<PhaseToCompute[]>;
}
