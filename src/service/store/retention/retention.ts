/**
 * What background pruning deletes, a bounded batch per statement so that no transaction
 * holds the database for long, and the lease that lets one instance at a time prune. A
 * pending delivery is never deleted: it may still be sent.
 */
import type { TextMemo } from '../configs/stored-text';
import { setPacked, unpackedConfigs } from '../configs/configs';
import { get, run, sql, type Executor, type Op } from '../sql/sql';

/** Taken when free, expired or already ours; `excluded` is the row offered. */
const TAKE_LEASE = sql(
  `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
   ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
   WHERE leases.expires_at <= ? OR leases.holder = excluded.holder`,
);
const RELEASE_LEASE = sql('DELETE FROM leases WHERE name = ? AND holder = ?');

/**
 * SQLite's label index gains a segment per write; a search reads every segment, so they are
 * merged in the background, about `pages` pages of work per statement (a negative count:
 * every segment is eligible, as 'optimize' would, but a step at a time).
 */
const MERGE_LABEL_INDEX = sql(
  "INSERT INTO configs_label_search (configs_label_search, rank) VALUES ('merge', ?)",
);
const TOTAL_CHANGES = sql('SELECT total_changes() AS changes');

/** One step of merging SQLite's label index; whether it found anything to merge. */
export function* mergeLabelIndex(pages: number): Op<boolean> {
  const before = yield* get(TOTAL_CHANGES);
  yield* run(MERGE_LABEL_INDEX, -pages);
  const after = yield* get(TOTAL_CHANGES);
  // The command counts as one change itself; a merge writes more (FTS5's own test).
  return Number(after?.changes) - Number(before?.changes) >= 2;
}

/** Settled deliveries by when they settled (made, for one never attempted), oldest index first. */
const PRUNE_DELIVERIES = sql(
  `DELETE FROM webhook_deliveries WHERE seq IN (
     SELECT seq FROM webhook_deliveries
      WHERE status = ? AND created_at < ? AND COALESCE(last_attempt_at, created_at) < ?
      LIMIT ?)`,
);
const PRUNE_DELETED_ENDPOINT_DELIVERIES = sql(
  `DELETE FROM webhook_deliveries WHERE seq IN (
     SELECT d.seq FROM webhooks w JOIN webhook_deliveries d ON d.webhook_id = w.id
      WHERE w.deleted_at IS NOT NULL AND w.deleted_at < ? AND d.status <> 'pending'
      LIMIT ?)`,
);
const PRUNE_DELETED_ENDPOINTS = sql(
  `DELETE FROM webhooks WHERE id IN (
     SELECT w.id FROM webhooks w
      WHERE w.deleted_at IS NOT NULL AND w.deleted_at < ?
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id)
      LIMIT ?)`,
);

const PRUNE_SESSIONS = sql(
  `DELETE FROM sessions WHERE id IN (
     SELECT id FROM sessions WHERE ended_at IS NOT NULL AND ended_at < ?
     UNION ALL
     SELECT id FROM sessions WHERE ended_at IS NULL AND last_seen_at < ?
     LIMIT ?)`,
);

export function pruneSessions(before: string, limit: number): Op<number> {
  return run(PRUNE_SESSIONS, before, before, limit);
}

/** Whether `holder` holds the lease `name` until `until` now (false: another holds it). */
export function* takeLease(name: string, holder: string, now: string, until: string): Op<boolean> {
  return (yield* run(TAKE_LEASE, name, holder, until, now)) > 0;
}

export function* releaseLease(name: string, holder: string): Op<void> {
  yield* run(RELEASE_LEASE, name, holder);
}

/** Deletes at most `limit` deliveries of `status` settled before `before`; how many. */
export function pruneDeliveries(
  status: 'delivered' | 'failed',
  before: string,
  limit: number,
): Op<number> {
  return run(PRUNE_DELIVERIES, status, before, before, limit);
}

/**
 * At most `limit` rows of endpoints deleted before `before`: their settled deliveries
 * first, then the endpoints left with none; how many rows went.
 */
export function* pruneDeletedWebhooks(before: string, limit: number): Op<number> {
  const deliveries = yield* run(PRUNE_DELETED_ENDPOINT_DELIVERIES, before, limit);
  if (deliveries >= limit) return deliveries;
  return deliveries + (yield* run(PRUNE_DELETED_ENDPOINTS, before, limit - deliveries));
}

/**
 * Packs up to `limit` config rows written before compression, each in a write of its own
 * with the text compressed outside it; a row changed meanwhile is left for its own write.
 * How many rows were read (fewer than `limit`: none is left).
 */
export async function packOldConfigTexts(
  db: Executor,
  limit: number,
  texts: TextMemo,
): Promise<number> {
  const rows = await db.read(unpackedConfigs(limit));
  for (const row of rows) await db.writeOne(setPacked(row.id, row.revision, texts.pack(row.yaml)));
  return rows.length;
}
