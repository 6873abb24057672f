/** What the pruner asks of the store (retention.ts has the statements). */
export interface PruningStore {
  /**
   * Takes or renews the lease `name` for `holder` until `until`, when it is free, expired at
   * `now` or already `holder`'s; false when another holder has it.
   */
  takeLease(name: string, holder: string, now: string, until: string): Promise<boolean>;
  releaseLease(name: string, holder: string): Promise<void>;
  /** Deletes at most `limit` deliveries of `status` settled before `before`; how many. */
  pruneDeliveries(status: 'delivered' | 'failed', before: string, limit: number): Promise<number>;
  /** At most `limit` rows of endpoints deleted before `before` and their deliveries; how many. */
  pruneDeletedWebhooks(before: string, limit: number): Promise<number>;
  /**
   * At most `limit` sessions ended before `before`, or never ended but unused since then
   * (long expired: no session lasts a day idle); how many.
   */
  pruneSessions(before: string, limit: number): Promise<number>;
  /**
   * Raw experiment events (exposures, metric events, their ids) received before `beforeMs`,
   * at most `limit` rows of each table; how many rows went.
   */
  pruneExperimentEvents(beforeMs: number, limit: number): Promise<number>;
  /** At most `limit` failed sign-ins older than `before`; how many. */
  pruneSignInFailures(before: string, limit: number): Promise<number>;
  /**
   * Merges the label search index's segments, about `pages` pages of work; whether there
   * was anything to merge (PostgreSQL's index needs nothing of the kind: always false).
   */
  mergeLabelIndex(pages: number): Promise<boolean>;
  /** Compresses up to `limit` config texts stored before compression; how many it found. */
  packOldConfigTexts(limit: number): Promise<number>;
}
