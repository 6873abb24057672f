/**
 * The seam between the webhook sender and the store: deliveries are rows written in the
 * same transaction as the change they announce (an outbox), claimed by one sender at a
 * time, and updated after each attempt. The store implements it on SQLite and PostgreSQL.
 */

/** A delivery a sender may attempt now, with what it needs to send it. */
export interface DueDelivery {
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
  /** When to try again; null when delivered or given up (the delivery is then failed). */
  readonly next_attempt_at: string | null;
}

export interface WebhookOutbox {
  /**
   * Claims at most `limit` deliveries due at `now` (pending, next_attempt_at <= now, not
   * leased by anyone else), for `leaseMs`: only the earliest pending delivery of each
   * endpoint, so that an endpoint gets its events in order. On PostgreSQL several instances
   * may call it at once and never get the same delivery (FOR UPDATE SKIP LOCKED).
   */
  claimDueDeliveries(now: string, limit: number, leaseMs: number): Promise<DueDelivery[]>;
  /** Records an attempt of a claimed delivery and releases its lease. */
  recordDeliveryAttempt(id: string, result: AttemptResult): Promise<void>;
  /** When the next pending delivery is due (to sleep until then); undefined: none. */
  nextDeliveryDue(): Promise<string | undefined>;
  /**
   * Calls `listener` in this process after each commit that queued deliveries (an event's
   * outbox rows, a test event, a retry), so a sleeping sender can claim them at once; returns
   * the unsubscribe. Deliveries queued by other processes or instances are found by polling.
   */
  onDeliveriesQueued?(listener: () => void): () => void;
}
