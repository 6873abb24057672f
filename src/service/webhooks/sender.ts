/**
 * The webhook sender: one loop per instance that claims due messages from the outbox,
 * sends each (concurrently across endpoints; the claim gives at most one per endpoint, so
 * an endpoint gets its events one at a time and in order), and records every attempt.
 * A message is sent at least once: a crash before its attempt is recorded leaves its lease
 * to expire, and the next claim sends it again with the same `webhook-id`.
 */
import type { Clock } from '../domain/clock';
import type { PostOutcome } from './http-post';
import type {
  AttemptResult,
  DueOutboxMessage,
  WebhookOutbox,
} from '../store/outbox/webhook-outbox';
import { nextAttemptAt, type RetrySchedule } from './retry-schedule';
import { signDelivery } from './signing';

/** Sends one signed delivery: postWebhook with the service's settings, or a test double. */
export type PostDelivery = (
  url: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal,
) => Promise<PostOutcome>;

export interface SenderLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface WebhookSenderSettings {
  readonly schedule: RetrySchedule;
  /** Sleep at most this long between claims (another instance's writes wake no one here). */
  readonly pollIntervalMs: number;
  /** Attempts in flight at most (each to another endpoint). */
  readonly maxInFlight: number;
  /** How long a claim is ours: longer than an attempt's timeout, so no other sender takes it mid-attempt. */
  readonly leaseMs: number;
  /** On close, in-flight attempts get this long to finish before they are abandoned. */
  readonly closeGraceMs: number;
}

export const DEFAULT_SENDER_SETTINGS: Omit<WebhookSenderSettings, 'schedule' | 'leaseMs'> = {
  pollIntervalMs: 1000,
  maxInFlight: 16,
  closeGraceMs: 2000,
};

/** A lease long enough for an attempt (its timeout) plus recording it. */
export function leaseFor(timeoutMs: number): number {
  return 3 * timeoutMs + 5000;
}

export interface WebhookSenderDeps {
  readonly outbox: WebhookOutbox;
  readonly post: PostDelivery;
  readonly clock: Clock;
  readonly log: SenderLog;
  readonly settings: WebhookSenderSettings;
}

export class WebhookSender {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Endpoints with an attempt in flight: never a second one at once. */
  private readonly busyEndpoints = new Set<string>();
  private wakeSleep: (() => void) | undefined;
  private wokenEarly = false;
  private readonly abort = new AbortController();

  constructor(private readonly deps: WebhookSenderDeps) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Something was written to the outbox (or an attempt ended): claim now, not at the next poll. */
  wake(): void {
    this.wokenEarly = true;
    this.wakeSleep?.();
  }

  /** Stops claiming; in-flight attempts get the grace period, then are abandoned and recorded. */
  async close(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    const grace = new Promise<void>((resolve) => {
      setTimeout(resolve, this.deps.settings.closeGraceMs).unref();
    });
    // A claim stuck on a database that does not answer must not hold the close.
    await Promise.race([this.loop, grace]);
    const attempts = [...this.inFlight.values()];
    if (attempts.length > 0) {
      await Promise.race([Promise.all(attempts), grace]);
      this.abort.abort();
      // Each attempt ends at once on the abort; recording it may wait on the database.
      await Promise.race([Promise.all(attempts), this.afterGrace()]);
    }
  }

  private afterGrace(): Promise<void> {
    return new Promise((resolve) => {
      setTimeout(resolve, this.deps.settings.closeGraceMs).unref();
    });
  }

  private async run(): Promise<void> {
    const { settings, outbox, clock } = this.deps;
    while (this.running) {
      this.wokenEarly = false;
      const room = settings.maxInFlight - this.inFlight.size;
      try {
        // A read first: an idle instance does not take the write lock of a claim each poll.
        const next = await outbox.nextOutboxDue();
        const wait = next === undefined ? Infinity : Date.parse(next) - clock().getTime();
        let claimed = 0;
        if (room > 0 && wait <= 0) claimed = await this.claimAndSend(room);
        if (!this.running) break;
        // More may be due at once: claim again without sleeping.
        if (claimed > 0 && claimed === room) continue;
        // Due but not claimed: someone holds its lease; the poll interval finds it freed.
        await this.sleep(
          wait > 0 ? Math.min(wait, settings.pollIntervalMs) : settings.pollIntervalMs,
        );
      } catch (error) {
        this.deps.log.error({ err: error }, 'webhook sender: the outbox is unavailable');
        await this.sleep(settings.pollIntervalMs);
      }
    }
  }

  private async claimAndSend(room: number): Promise<number> {
    const { outbox, clock, settings } = this.deps;
    const due = await outbox.claimDueOutbox(clock().toISOString(), room, settings.leaseMs);
    for (const delivery of due) {
      // The claim gives one per endpoint; an endpoint mid-attempt waits for its lease
      // to expire instead of getting two at once, out of order.
      if (this.busyEndpoints.has(delivery.webhook_id)) {
        this.deps.log.warn(
          { delivery: delivery.id, webhook: delivery.webhook_id },
          'webhook sender: claimed a second delivery of an endpoint in flight; left to its lease',
        );
        continue;
      }
      this.busyEndpoints.add(delivery.webhook_id);
      const attempt = this.attempt(delivery).finally(() => {
        this.inFlight.delete(delivery.id);
        this.busyEndpoints.delete(delivery.webhook_id);
        // The endpoint's next delivery may be waiting for this one.
        this.wake();
      });
      this.inFlight.set(delivery.id, attempt);
    }
    return due.length;
  }

  private sleep(ms: number): Promise<void> {
    if (this.wokenEarly || ms <= 0 || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeSleep = () => {
        this.wakeSleep = undefined;
        done();
      };
    });
  }

  private async attempt(delivery: DueOutboxMessage): Promise<void> {
    const { clock, post, outbox, log } = this.deps;
    let outcome: PostOutcome;
    try {
      const headers = signDelivery(
        delivery.id,
        clock().getTime() / 1000,
        delivery.payload,
        delivery.secret,
      );
      outcome = await post(delivery.url, delivery.payload, { ...headers }, this.abort.signal);
    } catch (error) {
      outcome = { status: null, error: `could not send: ${String(error)}`, excerpt: '' };
    }
    const result = this.resultOf(delivery, outcome);
    try {
      await outbox.recordOutboxAttempt(delivery.id, result);
    } catch (error) {
      // The lease expires and the delivery is sent again: at least once, never lost.
      log.error(
        { err: error, delivery: delivery.id },
        'webhook sender: could not record an attempt; it will be repeated',
      );
    }
  }

  private resultOf(delivery: DueOutboxMessage, outcome: PostOutcome): AttemptResult {
    const now = this.deps.clock();
    const at = now.toISOString();
    if (outcome.error === null) {
      return {
        at,
        delivered: true,
        response_status: outcome.status,
        error: null,
        next_attempt_at: null,
      };
    }
    // Abandoned at shutdown: due again at once, for the next sender to pick up.
    const next = this.abort.signal.aborted
      ? now
      : nextAttemptAt(
          this.deps.settings.schedule,
          new Date(delivery.created_at),
          delivery.attempts,
          now,
        );
    return {
      at,
      delivered: false,
      response_status: outcome.status,
      error: outcome.error,
      next_attempt_at: next === null ? null : next.toISOString(),
    };
  }
}
