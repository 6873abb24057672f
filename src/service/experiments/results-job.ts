/**
 * The background job that keeps A/B test results fresh: every pass it reads which phases
 * are stale (computed more than `maxAgeMs` ago, never computed, ended since their last
 * computation, or asked for by a refresh) and computes them one at a time. One instance at
 * a time holds the job's lease, so a fleet computes each phase once.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { RESULTS_MAX_AGE_MINUTES } from '../../contract/experiments';
import type { Clock } from '../domain/clock';
import type { PhasePlace, ResultsComputation } from '../domain/experiments/results-computation';
import type { PhaseToCompute } from '../store/experiments/experiment-results';
import type { Store } from '../store/store';

export const RESULTS_LEASE = 'experiment-results';
const DAY_MS = 86_400_000;

export interface ResultsJobSettings {
  /** `RESULTS_TICK_MS`: how often an instance looks for stale results. */
  readonly tickMs: number;
  /** Results older than this are computed again (under the promised 5 minutes). */
  readonly maxAgeMs: number;
  /** How long the lease lasts unless renewed: a job that died frees it after this. */
  readonly leaseMs: number;
}

export const DEFAULT_RESULTS_JOB: ResultsJobSettings = {
  tickMs: 5_000,
  maxAgeMs: (RESULTS_MAX_AGE_MINUTES - 1) * 60_000,
  leaseMs: 2 * 60_000,
};

interface Log {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Whether a phase's results should be computed now. */
export function isStale(phase: PhaseToCompute, now: number, maxAgeMs: number): boolean {
  const { computedAt, endedAt, refreshRequestedAt } = phase;
  if (computedAt === null) return true;
  if (refreshRequestedAt !== null && refreshRequestedAt >= computedAt) return true;
  if (endedAt !== null) return computedAt < endedAt;
  return Date.parse(computedAt) <= now - maxAgeMs;
}

export class ResultsJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private closed = false;
  private again = false;
  private readonly holder: string;

  constructor(
    private readonly deps: {
      readonly store: Store;
      readonly computation: ResultsComputation;
      readonly clock: Clock;
      readonly settings?: ResultsJobSettings;
      readonly log?: Log;
      /** Who holds the lease: this job, distinct from every other instance's. */
      readonly holder?: string;
    },
  ) {
    this.holder = deps.holder ?? randomUUID();
  }

  private get settings(): ResultsJobSettings {
    return this.deps.settings ?? DEFAULT_RESULTS_JOB;
  }

  /** One pass now: the phases computed, or undefined when another instance holds the lease. */
  async runDue(): Promise<PhasePlace[] | undefined> {
    const { store, clock, computation } = this.deps;
    if (!(await this.takeLease())) return undefined;
    const computed: PhasePlace[] = [];
    try {
      const now = clock().getTime();
      const phases = await store.phasesToCompute(new Date(now - DAY_MS).toISOString());
      for (const phase of phases) {
        if (this.closed) break;
        if (!isStale(phase, now, this.settings.maxAgeMs)) continue;
        await computation.compute(phase);
        computed.push({ accountId: phase.accountId, testId: phase.testId, phase: phase.phase });
        await this.takeLease();
      }
      return computed;
    } finally {
      await store.releaseLease(RESULTS_LEASE, this.holder);
    }
  }

  /** A pass as soon as the current one ends (a refresh was asked for). */
  wake(): void {
    if (this.closed || !this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pass(), 0).unref();
  }

  start(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => this.pass(), 0).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private pass(): void {
    this.again = false;
    this.running = this.runDue()
      .then((computed) => {
        if (computed?.length) this.deps.log?.info({ computed }, 'computed experiment results');
      })
      .catch((error: unknown) =>
        this.deps.log?.error({ err: error }, 'computing experiment results failed'),
      )
      .finally(() => {
        this.running = undefined;
        if (this.closed) return;
        const delay = this.again ? 0 : this.settings.tickMs;
        this.timer = setTimeout(() => this.pass(), delay).unref();
      });
  }

  private takeLease(): Promise<boolean> {
    const now = this.deps.clock();
    const until = new Date(now.getTime() + this.settings.leaseMs).toISOString();
    return this.deps.store.takeLease(RESULTS_LEASE, this.holder, now.toISOString(), until);
  }
}

/** The job in the app's life: started when the app is ready, closed before the store is. */
export function registerResultsJob(app: FastifyInstance, job: ResultsJob): void {
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', () => job.close());
}
