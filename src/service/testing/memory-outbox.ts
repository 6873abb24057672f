/**
 * An in-memory WebhookOutbox for the sender's scheduling tests only (the service's tests use
 * the real stores): deliveries claimed one per endpoint, earliest first, under a lease.
 */
import type { AttemptResult, DueDelivery, WebhookOutbox } from '../webhooks/outbox';

export interface MemoryDelivery {
  readonly delivery: DueDelivery;
  state: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: number;
  leasedUntil: number;
  attempts: AttemptResult[];
}

export class MemoryOutbox implements WebhookOutbox {
  readonly deliveries: MemoryDelivery[] = [];
  private sequence = 0;
  /** Makes the next calls throw, as a database that is down would. */
  failures = { claim: 0, record: 0, nextDue: 0 };

  constructor(private readonly now: () => number = Date.now) {}

  add(webhookId: string, options: { dueInMs?: number; secret?: string } = {}): DueDelivery {
    this.sequence += 1;
    const created = this.now();
    const delivery: DueDelivery = {
      id: `msg_${this.sequence}`,
      webhook_id: webhookId,
      account_id: 'acc_1',
      url: `https://${webhookId}.example.com/in`,
      secret: options.secret ?? 'whsec_AAECAwQFBgcICQoLDA0ODw==',
      event: 'config.published',
      payload: JSON.stringify({ type: 'config.published', data: { n: this.sequence } }),
      attempts: 0,
      created_at: new Date(created).toISOString(),
    };
    this.deliveries.push({
      delivery,
      state: 'pending',
      nextAttemptAt: created + (options.dueInMs ?? 0),
      leasedUntil: 0,
      attempts: [],
    });
    return delivery;
  }

  get(id: string): MemoryDelivery {
    const found = this.deliveries.find((each) => each.delivery.id === id);
    if (!found) throw new Error(`no delivery ${id}`);
    return found;
  }

  claimDueDeliveries(now: string, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    if (this.failures.claim > 0) {
      this.failures.claim -= 1;
      return Promise.reject(new Error('database unavailable'));
    }
    const at = Date.parse(now);
    const seen = new Set<string>();
    const claimed: DueDelivery[] = [];
    for (const each of this.deliveries) {
      if (each.state !== 'pending' || seen.has(each.delivery.webhook_id)) continue;
      // The endpoint's earliest pending delivery, whether or not it can be claimed now.
      seen.add(each.delivery.webhook_id);
      if (each.nextAttemptAt > at || each.leasedUntil > at || claimed.length >= limit) continue;
      each.leasedUntil = at + leaseMs;
      claimed.push({ ...each.delivery, attempts: each.attempts.length });
    }
    return Promise.resolve(claimed);
  }

  recordDeliveryAttempt(id: string, result: AttemptResult): Promise<void> {
    if (this.failures.record > 0) {
      this.failures.record -= 1;
      return Promise.reject(new Error('database unavailable'));
    }
    const each = this.get(id);
    each.attempts.push(result);
    each.leasedUntil = 0;
    if (result.delivered) each.state = 'delivered';
    else if (result.next_attempt_at === null) each.state = 'failed';
    else each.nextAttemptAt = Date.parse(result.next_attempt_at);
    return Promise.resolve();
  }

  nextDeliveryDue(): Promise<string | undefined> {
    if (this.failures.nextDue > 0) {
      this.failures.nextDue -= 1;
      return Promise.reject(new Error('database unavailable'));
    }
    const due = this.deliveries
      .filter((each) => each.state === 'pending')
      .map((each) => Math.max(each.nextAttemptAt, each.leasedUntil));
    if (due.length === 0) return Promise.resolve(undefined);
    return Promise.resolve(new Date(Math.min(...due)).toISOString());
  }
}
