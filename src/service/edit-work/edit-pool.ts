/**
 * Worker threads for the edit's CPU work (edit-task.ts), so that parsing or validating a
 * large config never holds the service's event loop. Each account's edits go to one worker
 * (a shard), which keeps its recently edited documents: the next edit of a draft finds its
 * parsed document where the last one left it. Threads start with the service (`start`), or
 * on the first edit.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { refuseEdit } from '../domain/edit-refusals';
import type { EditTask, EditTaskResult } from './edit-task';
import type { EditWorkerData } from './edit-worker';

export interface EditPoolSettings {
  /** Worker threads (shards); `EDIT_WORKERS`, by default one core fewer than the machine has. */
  readonly workers: number;
  /** Memory the parsed-document caches may hold in all, estimated (`EDIT_CACHE_MB`). */
  readonly cacheBytes: number;
  /** Edits waiting for one worker beyond this are refused with 503 rather than queued. */
  readonly maxQueuedPerWorker?: number;
  /** Whether a new worker compiles the edit's code before its first task (the service's). */
  readonly warmUp?: boolean;
}

const MIB = 1024 * 1024;

export const DEFAULT_EDIT_POOL: EditPoolSettings = {
  workers: Math.max(1, Math.min(4, availableParallelism() - 1)),
  cacheBytes: 96 * MIB,
  warmUp: true,
};

/** A worker's heap beyond its cache: the parse of the largest config (4 MiB) fits in it. */
const WORKER_HEAP_HEADROOM_MB = 256;

const MAX_QUEUED_PER_WORKER = 64;

/** The bundle runs the bundled worker; the TypeScript source runs the worker's source. */
function workerFilename(): string {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('./edit-worker-source.mjs', here).href
    : new URL('./edit-worker.mjs', here).href;
}

export class EditPool {
  private shards: Piscina<EditTask, EditTaskResult>[] | undefined;
  private closed = false;

  constructor(private readonly settings: EditPoolSettings = DEFAULT_EDIT_POOL) {}

  /** Starts the threads now, so that the first edit does not wait for them. */
  start(): void {
    if (!this.closed) this.shards ??= this.startShards();
  }

  async run(accountId: string, task: EditTask): Promise<EditTaskResult> {
    if (this.closed) throw new Error('The edit pool is closed');
    const shards = (this.shards ??= this.startShards());
    const shard = shards[shardIndex(accountId, shards.length)] as Piscina<EditTask, EditTaskResult>;
    if (shard.queueSize >= (this.settings.maxQueuedPerWorker ?? MAX_QUEUED_PER_WORKER)) {
      throw refuseEdit({
        kind: 'edit_queue_full',
        message: 'Too many edits are waiting for this account; try again in a moment',
        retryAfterSeconds: 1,
      });
    }
    return shard.run(task);
  }

  /** Waits for the edits already started, then ends the threads. */
  async close(): Promise<void> {
    this.closed = true;
    const shards = this.shards ?? [];
    this.shards = undefined;
    await Promise.all(shards.map((shard) => shard.close()));
  }

  private startShards(): Piscina<EditTask, EditTaskResult>[] {
    const workers = Math.max(1, Math.floor(this.settings.workers));
    const workerData: EditWorkerData = {
      cacheBytes: Math.floor(this.settings.cacheBytes / workers),
      warmUp: this.settings.warmUp ?? false,
    };
    const heapMb = Math.ceil(workerData.cacheBytes / MIB) + WORKER_HEAP_HEADROOM_MB;
    return Array.from(
      { length: workers },
      () =>
        new Piscina<EditTask, EditTaskResult>({
          filename: workerFilename(),
          name: 'default',
          minThreads: 1,
          maxThreads: 1,
          // Bounded in run(), which answers a full queue with a 503.
          maxQueue: Infinity,
          workerData,
          // V8 lets a heap grow far past what it holds before collecting; a limit makes it
          // collect sooner, and the cache's budget keeps what it holds under the limit.
          resourceLimits: {
            maxOldGenerationSizeMb: heapMb,
          },
        }),
    );
  }
}

/** FNV-1a of the account id: the same account always lands on the same worker. */
function shardIndex(accountId: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < accountId.length; index++) {
    hash ^= accountId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}
