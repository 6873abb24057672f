/**
 * The experiments' part of the Store facade (SqlStore extends it): metrics, experiment
 * events and phases, and what the results job computed, each method one operation of its
 * aggregate on the executor.
 */
import type { ExperimentStore } from './experiments/experiment-store';
import * as experimentEvents from './experiments/experiment-events';
import * as experimentResults from './experiments/experiment-results';
import * as metrics from './metrics/metrics';
import type { AuditRecord, MetricRecord } from './records';
import { SqlPeopleStore } from './sql-people-store';

export abstract class SqlExperimentStore extends SqlPeopleStore implements ExperimentStore {
  listMetrics(accountId: string) {
    return this.db.read(metrics.listMetrics(accountId));
  }
  getMetric(accountId: string, id: string) {
    return this.db.read(metrics.getMetric(accountId, id));
  }
  createMetric(metric: MetricRecord, audit: AuditRecord, limit: number) {
    return this.db.write(metrics.createMetric(metric, audit, limit));
  }
  updateMetric(
    accountId: string,
    id: string,
    change: metrics.MetricChange,
    at: string,
    audit: AuditRecord,
  ) {
    return this.db.write(metrics.updateMetric(accountId, id, change, at, audit));
  }
  deleteMetric(accountId: string, id: string, audit: AuditRecord) {
    return this.db.write(metrics.deleteMetric(accountId, id, audit));
  }

  ingestEvents(
    accountId: string,
    events: readonly experimentEvents.StoredEvent[],
    receivedMs: number,
  ) {
    return this.db.write(experimentEvents.ingestEvents(accountId, events, receivedMs));
  }
  syncPhases(accountId: string, running: readonly experimentEvents.RunningTest[], at: string) {
    return this.db.write(experimentEvents.syncPhases(accountId, running, at));
  }
  markSimulated(accountId: string, testId: string, phase: number) {
    return this.db.writeOne(experimentEvents.markSimulated(accountId, testId, phase));
  }
  phasesOfTest(accountId: string, testId: string) {
    return this.db.read(experimentEvents.phasesOfTest(accountId, testId));
  }
  unitPage(
    place: experimentResults.UnitPlace,
    metrics: readonly experimentResults.CountedMetric[],
    afterUnit: string,
    limit: number,
  ) {
    return this.db.read(experimentResults.unitPage(place, metrics, afterUnit, limit));
  }
  mismatchesOf(accountId: string, testId: string, phase: number) {
    return this.db.read(experimentResults.mismatchesOf(accountId, testId, phase));
  }
  saveResults(
    accountId: string,
    testId: string,
    row: experimentResults.ResultsRow,
    startedAt: string,
  ) {
    return this.db.write(experimentResults.saveResults(accountId, testId, row, startedAt));
  }
  resultsOfPhase(accountId: string, testId: string, phase: number) {
    return this.db.read(experimentResults.resultsOfPhase(accountId, testId, phase));
  }
  latestResults(accountId: string, testId: string, phase: number) {
    return this.db.read(experimentResults.latestResults(accountId, testId, phase));
  }
  requestRefresh(accountId: string, testId: string, at: string) {
    return this.db.writeOne(experimentResults.requestRefresh(accountId, testId, at));
  }
  phasesToCompute(endedSince: string) {
    return this.db.read(experimentResults.phasesToCompute(endedSince));
  }
  pruneExperimentEvents(beforeMs: number, limit: number) {
    return this.db.write(experimentResults.pruneExperimentEvents(beforeMs, limit));
  }
}
