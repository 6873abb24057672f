/**
 * Runs scheduled changes when they are due, on every instance: each pass reads what is due
 * and claims each schedule with a conditional UPDATE, so one instance runs it; a claim whose
 * instance died expires and another takes it over. A change marks itself done in its own
 * unit of work (domain/schedules.ts), so it is made once even when a claim changes hands.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../domain/clock';
import type { ScheduleRun, Schedules } from '../domain/schedules';
import type { ScheduleStore } from '../store/environments/environment-store';

export interface SchedulerSettings {
  /** `SCHEDULE_TICK_MS`: how often an instance looks for due changes (well under 5 s). */
  readonly tickMs: number;
  /** How long a claim lasts: an instance that died mid-run frees its schedule after this. */
  readonly claimMs: number;
  /** Schedules read per pass at most (the next pass takes the rest). */
  readonly batch: number;
}

export const DEFAULT_SCHEDULER: SchedulerSettings = { tickMs: 1_000, claimMs: 30_000, batch: 20 };

interface Log {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private closed = false;

  constructor(
    private readonly store: ScheduleStore,
    private readonly schedules: Schedules,
    private readonly clock: Clock,
    private readonly settings: SchedulerSettings = DEFAULT_SCHEDULER,
    private readonly log?: Log,
    /** Who claims: this scheduler, distinct from every other instance's. */
    private readonly holder: string = randomUUID(),
  ) {}

  /** One pass now: what each due schedule this instance claimed came to. */
  async runDue(): Promise<Map<string, ScheduleRun>> {
    const outcomes = new Map<string, ScheduleRun>();
    const now = this.clock();
    const due = await this.store.dueSchedules(now.toISOString(), this.settings.batch);
    for (const id of due) {
      if (this.closed) break;
      const claimedAt = this.clock();
      const until = new Date(claimedAt.getTime() + this.settings.claimMs).toISOString();
      const claimed = await this.store.claimSchedule(
        id,
        this.holder,
        claimedAt.toISOString(),
        until,
      );
      if (!claimed) continue;
      const outcome = await this.schedules.run(claimed, this.holder);
      outcomes.set(id, outcome);
      this.log?.info(
        { schedule: id, account: claimed.account_id, action: claimed.action, outcome },
        'ran a scheduled change',
      );
    }
    return outcomes;
  }

  /** Passes every tickMs from now on, the first at once; never two at a time. */
  start(): void {
    if (this.closed || this.timer) return;
    const pass = () => {
      this.running = this.runDue()
        .catch((error: unknown) => this.log?.error({ err: error }, 'scheduled changes failed'))
        .finally(() => {
          if (!this.closed) this.timer = setTimeout(pass, this.settings.tickMs).unref();
        });
    };
    this.timer = setTimeout(pass, 0).unref();
  }

  /** Stops after the current schedule; resolves when no pass runs. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}

/** The scheduler in the app's life: started when the app is ready, closed before the store. */
export function registerScheduler(app: FastifyInstance, scheduler: Scheduler): void {
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('onClose', () => scheduler.close());
}
