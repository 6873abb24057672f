/**
 * Retention: deletes what has outlived its setting (docs/operations.md, Retention) in the
 * background, a bounded batch per statement with a turn of the event loop between batches,
 * on one instance or process at a time (a lease row in the database, renewed each batch).
 * It also compresses config texts stored before compression, one row per write.
 */
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../domain/clock';
import type { PruningStore } from '../store/retention/pruning-store';

const DAY_MS = 86_400_000;
export const PRUNING_LEASE = 'pruning';

export interface RetentionSettings {
  /** `WEBHOOK_DELIVERED_RETENTION_DAYS`: delivered webhook messages are kept this long. */
  readonly deliveredDays: number;
  /** `WEBHOOK_FAILED_RETENTION_DAYS`: failed webhook messages are kept this long. */
  readonly failedDays: number;
  /** `WEBHOOK_DELETED_RETENTION_DAYS`: a deleted endpoint and its messages, after its deletion. */
  readonly deletedWebhookDays: number;
  /** `SESSION_RETENTION_DAYS`: an ended (or long expired) session is kept this long. */
  readonly sessionDays: number;
  /** `EXPERIMENT_EVENT_RETENTION_DAYS`: raw exposures and metric events (and their ids). */
  readonly experimentEventDays: number;
  /** `PRUNE_INTERVAL_MS`: how often an instance tries to prune. */
  readonly intervalMs: number;
  /** Rows one statement deletes at most. */
  readonly batchSize: number;
  /** Pages of the label index merged per step, and steps a round at most. */
  readonly labelIndexMergePages: number;
  readonly labelIndexMergeSteps: number;
  /** Config texts compressed a round at most (each row its own write). */
  readonly packBatch: number;
  /** How long the lease lasts unless renewed: a pruner that died frees it after this. */
  readonly leaseMs: number;
}

export const DEFAULT_RETENTION: RetentionSettings = {
  deliveredDays: 30,
  failedDays: 90,
  deletedWebhookDays: 30,
  sessionDays: 7,
  experimentEventDays: 90,
  intervalMs: 60 * 60 * 1000,
  batchSize: 500,
  packBatch: 20,
  labelIndexMergePages: 200,
  labelIndexMergeSteps: 50,
  leaseMs: 5 * 60 * 1000,
};

/** What one round did: rows gone (or packed) and statements run, by rule. */
export interface PruneRound {
  readonly delivered: { readonly rows: number; readonly batches: number };
  readonly failed: { readonly rows: number; readonly batches: number };
  readonly deletedWebhooks: { readonly rows: number; readonly batches: number };
  readonly sessions: { readonly rows: number; readonly batches: number };
  readonly experimentEvents: { readonly rows: number; readonly batches: number };
  readonly packedConfigs: number;
  /** Steps that merged some of the label index. */
  readonly labelIndexMerges: number;
}

interface Log {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export class Pruner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private closed = false;

  constructor(
    private readonly store: PruningStore,
    private readonly clock: Clock,
    private readonly settings: RetentionSettings = DEFAULT_RETENTION,
    private readonly log?: Log,
    /** Who holds the lease: this pruner, distinct from every other process's. */
    private readonly holder: string = randomUUID(),
  ) {}

  /** One round now; undefined when another instance holds the lease (or on close). */
  async pruneOnce(): Promise<PruneRound | undefined> {
    if (this.closed || !(await this.renewLease())) return undefined;
    try {
      const now = this.clock().getTime();
      const before = (days: number) => new Date(now - days * DAY_MS).toISOString();
      const { deliveredDays, failedDays, deletedWebhookDays } = this.settings;
      const delivered = await this.inBatches((limit) =>
        this.store.pruneDeliveries('delivered', before(deliveredDays), limit),
      );
      const failed = await this.inBatches((limit) =>
        this.store.pruneDeliveries('failed', before(failedDays), limit),
      );
      const deletedWebhooks = await this.inBatches((limit) =>
        this.store.pruneDeletedWebhooks(before(deletedWebhookDays), limit),
      );
      const sessions = await this.inBatches((limit) =>
        this.store.pruneSessions(before(this.settings.sessionDays), limit),
      );
      const experimentEvents = await this.inBatches((limit) =>
        this.store.pruneExperimentEvents(now - this.settings.experimentEventDays * DAY_MS, limit),
      );
      // Failed sign-ins count for an hour at most: a day later they tell nothing.
      await this.inBatches((limit) => this.store.pruneSignInFailures(before(1), limit));
      const packedConfigs = this.closed
        ? 0
        : await this.store.packOldConfigTexts(this.settings.packBatch);
      const labelIndexMerges = await this.mergeLabelIndex();
      return {
        delivered,
        failed,
        deletedWebhooks,
        sessions,
        experimentEvents,
        packedConfigs,
        labelIndexMerges,
      };
    } finally {
      await this.store.releaseLease(PRUNING_LEASE, this.holder);
    }
  }

  /** Steps until the label index is one segment, or the round's steps are spent. */
  private async mergeLabelIndex(): Promise<number> {
    const { labelIndexMergePages: pages, labelIndexMergeSteps: steps } = this.settings;
    let merged = 0;
    while (!this.closed && merged < steps && (await this.store.mergeLabelIndex(pages))) {
      merged += 1;
      await nextTurn();
    }
    return merged;
  }

  /** Rounds every intervalMs from now on, the first one at once. */
  start(): void {
    if (this.closed || this.timer) return;
    const round = () => {
      this.running = this.pruneOnce()
        .then((done) => {
          if (done) this.log?.info({ retention: done }, 'pruned what outlived its retention');
        })
        .catch((error: unknown) => this.log?.error({ err: error }, 'pruning failed'))
        .finally(() => {
          if (!this.closed) this.timer = setTimeout(round, this.settings.intervalMs).unref();
        });
    };
    this.timer = setTimeout(round, 0).unref();
  }

  /** Stops after the current batch; resolves when no round runs. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private renewLease(): Promise<boolean> {
    const now = this.clock();
    const until = new Date(now.getTime() + this.settings.leaseMs).toISOString();
    return this.store.takeLease(PRUNING_LEASE, this.holder, now.toISOString(), until);
  }

  /** Runs `batch` until it deletes fewer than a batch, yielding between batches. */
  private async inBatches(
    batch: (limit: number) => Promise<number>,
  ): Promise<{ rows: number; batches: number }> {
    let rows = 0;
    let batches = 0;
    for (;;) {
      if (this.closed) break;
      const deleted = await batch(this.settings.batchSize);
      rows += deleted;
      batches += 1;
      if (deleted < this.settings.batchSize) break;
      await nextTurn();
      // The lease ran out under us (a long stall): another instance may prune now.
      if (!(await this.renewLease())) break;
    }
    return { rows, batches };
  }
}
