/**
 * An in-memory WebhookOutbox for the sender's scheduling tests only (the service's tests use
 * the real stores): messages claimed one per endpoint, earliest first, under a lease.
 */
import type {
  AttemptResult,
  DueOutboxMessage,
  WebhookOutbox,
} from '../store/outbox/webhook-outbox';

export interface MemoryMessage {
  readonly message: DueOutboxMessage;
  state: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: number;
  leasedUntil: number;
  attempts: AttemptResult[];
}

export class MemoryOutbox implements WebhookOutbox {
  readonly messages: MemoryMessage[] = [];
  private sequence = 0;
  /** Makes the next calls throw, as a database that is down would. */
  failures = { claim: 0, record: 0, nextDue: 0 };

  constructor(private readonly now: () => number = Date.now) {}

  add(webhookId: string, options: { dueInMs?: number; secret?: string } = {}): DueOutboxMessage {
    this.sequence += 1;
    const created = this.now();
    const message: DueOutboxMessage = {
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
    this.messages.push({
      message,
      state: 'pending',
      nextAttemptAt: created + (options.dueInMs ?? 0),
      leasedUntil: 0,
      attempts: [],
    });
    return message;
  }

  get(id: string): MemoryMessage {
    const found = this.messages.find((each) => each.message.id === id);
    if (!found) throw new Error(`no message ${id}`);
    return found;
  }

  claimDueOutbox(now: string, limit: number, leaseMs: number): Promise<DueOutboxMessage[]> {
    if (this.failures.claim > 0) {
      this.failures.claim -= 1;
      return Promise.reject(new Error('database unavailable'));
    }
    const at = Date.parse(now);
    const seen = new Set<string>();
    const claimed: DueOutboxMessage[] = [];
    for (const each of this.messages) {
      if (each.state !== 'pending' || seen.has(each.message.webhook_id)) continue;
      // The endpoint's earliest pending message, whether or not it can be claimed now.
      seen.add(each.message.webhook_id);
      if (each.nextAttemptAt > at || each.leasedUntil > at || claimed.length >= limit) continue;
      each.leasedUntil = at + leaseMs;
      claimed.push({ ...each.message, attempts: each.attempts.length });
    }
    return Promise.resolve(claimed);
  }

  recordOutboxAttempt(id: string, result: AttemptResult): Promise<void> {
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

  nextOutboxDue(): Promise<string | undefined> {
    if (this.failures.nextDue > 0) {
      this.failures.nextDue -= 1;
      return Promise.reject(new Error('database unavailable'));
    }
    const due = this.messages
      .filter((each) => each.state === 'pending')
      .map((each) => Math.max(each.nextAttemptAt, each.leasedUntil));
    if (due.length === 0) return Promise.resolve(undefined);
    return Promise.resolve(new Date(Math.min(...due)).toISOString());
  }
}
