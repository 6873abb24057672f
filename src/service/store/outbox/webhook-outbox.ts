/**
 * The seam between the webhook sender and the store: outbox messages are rows written in the
 * same transaction as the change they announce, claimed by one sender at a time, and updated
 * after each attempt to deliver them.
 */

/** An outbox message a sender may attempt now, with what it needs to send it. */
export interface DueOutboxMessage {
  /** `msg_…`: the `webhook-id` of every attempt. */
  readonly id: string;
  readonly webhook_id: string;
  readonly account_id: string;
  readonly url: string;
  /** `whsec_…` */
  readonly secret: string;
  readonly event: string;
  /** The JSON body, exactly as written in the outbox (`{type, timestamp, data}`). */
  readonly payload: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly created_at: string;
}

/** What one attempt came to. */
export interface AttemptResult {
  readonly at: string;
  readonly delivered: boolean;
  /** The answer's status; null when there was none (refused, timed out, blocked). */
  readonly response_status: number | null;
  readonly error: string | null;
  /** When to try again; null when delivered or given up (the message is then failed). */
  readonly next_attempt_at: string | null;
}

export interface WebhookOutbox {
  /**
   * Claims at most `limit` messages due at `now` (pending, next_attempt_at <= now, not
   * leased by anyone else), for `leaseMs`: only the earliest pending message of each
   * endpoint, so that an endpoint gets its events in order. On PostgreSQL several instances
   * may call it at once and never get the same message (FOR UPDATE SKIP LOCKED).
   */
  claimDueOutbox(now: string, limit: number, leaseMs: number): Promise<DueOutboxMessage[]>;
  /** Records an attempt of a claimed message and releases its lease. */
  recordOutboxAttempt(id: string, result: AttemptResult): Promise<void>;
  /** When the next pending message is due (to sleep until then); undefined: none. */
  nextOutboxDue(): Promise<string | undefined>;
  /**
   * Calls `listener` in this process after each commit that queued messages (an event's
   * outbox rows, a test event, a retry), so a sleeping sender can claim them at once; returns
   * the unsubscribe. Messages queued by other processes or instances are found by polling.
   */
  onOutboxQueued?(listener: () => void): () => void;
}
