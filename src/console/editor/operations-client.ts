/**
 * The page's side of the operations worker: one request, one promise. Where there is no
 * Worker (tests) or the worker fails to start, the same functions run on this thread.
 */
import { EDITOR_MARKS, markEditorStep } from './ready-marks';
import type {
  OperationsEnvelope,
  OperationsReply,
  OperationsRequest,
  ResultOf,
} from './operations-protocol';

/** The part of a Worker the client uses. */
export interface WorkerLike {
  postMessage(message: OperationsEnvelope): void;
  onmessage: ((event: MessageEvent<OperationsReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

interface Pending {
  readonly request: OperationsRequest;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

/** A request that a newer one of its lane replaced before it started. */
export class SupersededError extends Error {
  override readonly name = 'SupersededError';
  constructor() {
    super('A newer request replaced this one.');
  }
}

interface Lane {
  running: boolean;
  next: Pending | null;
}

/** Runs requests on this thread, one task later (as a worker's answer would come). */
export function inThreadWorker(): WorkerLike {
  // The handler loads as this stand-in is made; its session lives as long as the stand-in.
  const session = import('./operations-handler').then((handler) => ({
    handler,
    state: new handler.OperationsSession(),
  }));
  const worker: WorkerLike = {
    onmessage: null,
    onerror: null,
    postMessage({ id, request }) {
      void session.then(({ handler, state }) => {
        let reply: OperationsReply;
        try {
          reply = { id, ok: true, result: handler.handleOperationsRequest(state, request) };
        } catch (error) {
          reply = {
            id,
            ok: false,
            message: error instanceof Error ? error.message : String(error),
          };
        }
        worker.onmessage?.(new MessageEvent('message', { data: reply }));
      });
    },
    terminate() {
      worker.onmessage = null;
    },
  };
  return worker;
}

export class OperationsClient {
  private worker: WorkerLike;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly lanes = new Map<string, Lane>();

  constructor(worker: WorkerLike) {
    this.worker = worker;
    this.attach(worker);
  }

  run<R extends OperationsRequest>(request: R): Promise<ResultOf<R>> {
    const id = this.nextId++;
    return new Promise<ResultOf<R>>((resolve, reject) => {
      this.pending.set(id, {
        request,
        resolve: resolve as (result: unknown) => void,
        reject,
      });
      this.worker.postMessage({ id, request });
    });
  }

  /**
   * Like `run`, but at most one request of the lane runs and one waits: a newer request
   * replaces the waiting one (which fails with SupersededError). Previews of the edit on a
   * large config take seconds each; typing must not queue up stale ones ahead of a save.
   */
  runLatest<R extends OperationsRequest>(lane: string, request: R): Promise<ResultOf<R>> {
    return new Promise<ResultOf<R>>((resolve, reject) => {
      const job: Pending = { request, resolve: resolve as (result: unknown) => void, reject };
      let state = this.lanes.get(lane);
      if (!state) {
        state = { running: false, next: null };
        this.lanes.set(lane, state);
      }
      if (!state.running) {
        state.running = true;
        this.drive(state, job);
        return;
      }
      state.next?.reject(new SupersededError());
      state.next = job;
    });
  }

  private drive(lane: Lane, job: Pending): void {
    this.run(job.request)
      .then(job.resolve, job.reject)
      .finally(() => {
        const next = lane.next;
        lane.next = null;
        if (next) this.drive(lane, next);
        else lane.running = false;
      });
  }

  dispose(): void {
    this.worker.terminate();
    for (const pending of this.pending.values()) pending.reject(new Error('disposed'));
    this.pending.clear();
  }

  private attach(worker: WorkerLike): void {
    worker.onmessage = (event) => {
      const reply = event.data;
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(new Error(reply.message));
    };
    // A worker that cannot run (blocked, failed to load): carry on without one.
    worker.onerror = () => {
      worker.terminate();
      const fallback = inThreadWorker();
      this.worker = fallback;
      this.attach(fallback);
      for (const [id, { request }] of this.pending) fallback.postMessage({ id, request });
    };
  }
}

function startWorker(): WorkerLike {
  if (typeof Worker !== 'function') return inThreadWorker();
  markEditorStep(`${EDITOR_MARKS.workerStarted}operations`);
  return new Worker(new URL('./operations.worker.ts', import.meta.url), {
    type: 'module',
    name: 'operations',
  }) as unknown as WorkerLike;
}

let shared: OperationsClient | undefined;

/** The page's operations worker, started on first use and kept for the session. */
export function operationsClient(): OperationsClient {
  shared ??= new OperationsClient(startWorker());
  return shared;
}
