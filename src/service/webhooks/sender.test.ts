/**
 * The sender's scheduling against an in-memory outbox and a scripted post: order per
 * endpoint, concurrency across endpoints, retries, wake-ups, database errors, shutdown.
 * The real stores and real receivers are in api-tests/webhook-sending*.test.ts.
 */
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PostOutcome } from './http-post';
import { MemoryOutbox } from '../testing/memory-outbox';
import { WebhookSender, type PostDelivery, type WebhookSenderSettings } from './sender';

const ok: PostOutcome = { status: 200, error: null, excerpt: '' };
const broken: PostOutcome = { status: 500, error: 'answered 500', excerpt: '' };

interface Sent {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

const senders: WebhookSender[] = [];
afterEach(async () => {
  await Promise.all(senders.splice(0).map((sender) => sender.close()));
});

function senderFor(
  outbox: MemoryOutbox,
  post: PostDelivery,
  settings: Partial<WebhookSenderSettings> = {},
) {
  const log = { warn: vi.fn(), error: vi.fn() };
  const sender = new WebhookSender({
    outbox,
    post,
    clock: () => new Date(),
    log,
    settings: {
      schedule: { delaysMs: [30, 60], thenEveryMs: 60, giveUpAfterMs: 60_000 },
      pollIntervalMs: 20,
      maxInFlight: 16,
      leaseMs: 5_000,
      closeGraceMs: 200,
      ...settings,
    },
  });
  senders.push(sender);
  return { sender, log };
}

function recording(answer: (sent: Sent) => PostOutcome | Promise<PostOutcome> = () => ok) {
  const sent: Sent[] = [];
  const post: PostDelivery = (url, body, headers) => {
    const each = { url, body, headers };
    sent.push(each);
    return Promise.resolve(answer(each));
  };
  return { sent, post };
}

describe('the webhook sender', () => {
  it('sends a due delivery, signed, and records it delivered', async () => {
    const outbox = new MemoryOutbox();
    const delivery = outbox.add('wh_a');
    const { sent, post } = recording();
    senderFor(outbox, post).sender.start();
    await vi.waitFor(() => expect(outbox.get(delivery.id).state).toBe('delivered'));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(delivery.url);
    expect(sent[0]?.body).toBe(delivery.payload);
    expect(new Webhook(delivery.secret).verify(delivery.payload, { ...sent[0]?.headers })).toEqual(
      JSON.parse(delivery.payload),
    );
    expect(outbox.get(delivery.id).attempts).toEqual([
      expect.objectContaining({ delivered: true, response_status: 200, next_attempt_at: null }),
    ]);
  });

  it('retries on the schedule with the same webhook-id, then delivers', async () => {
    const outbox = new MemoryOutbox();
    const delivery = outbox.add('wh_a');
    let calls = 0;
    const { sent, post } = recording(() => (++calls <= 2 ? broken : ok));
    senderFor(outbox, post).sender.start();
    await vi.waitFor(() => expect(outbox.get(delivery.id).state).toBe('delivered'));
    const attempts = outbox.get(delivery.id).attempts;
    expect(attempts.map((each) => each.response_status)).toEqual([500, 500, 200]);
    expect(new Set(sent.map((each) => each.headers['webhook-id']))).toEqual(new Set([delivery.id]));
    // The first retry waited its 30 ms, the second its 60 ms.
    const times = attempts.map((each) => Date.parse(each.at));
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(29);
    expect((times[2] ?? 0) - (times[1] ?? 0)).toBeGreaterThanOrEqual(59);
  });

  it('marks a delivery failed when the schedule runs out', async () => {
    const outbox = new MemoryOutbox();
    const delivery = outbox.add('wh_a');
    const { post } = recording(() => broken);
    senderFor(outbox, post, {
      schedule: { delaysMs: [20], thenEveryMs: 20, giveUpAfterMs: 100 },
    }).sender.start();
    await vi.waitFor(() => expect(outbox.get(delivery.id).state).toBe('failed'));
    const attempts = outbox.get(delivery.id).attempts;
    expect(attempts.at(-1)).toEqual(
      expect.objectContaining({ delivered: false, error: 'answered 500', next_attempt_at: null }),
    );
    expect(attempts.length).toBeGreaterThanOrEqual(3);
  });

  it('sends an endpoint’s deliveries one at a time and in order; other endpoints meanwhile', async () => {
    const outbox = new MemoryOutbox();
    const a = [outbox.add('wh_a'), outbox.add('wh_a'), outbox.add('wh_a')];
    const b = outbox.add('wh_b');
    const release: (() => void)[] = [];
    let inFlightToA = 0;
    let mostToA = 0;
    const { sent, post } = recording(async (each) => {
      if (!each.url.includes('wh_a')) return ok;
      inFlightToA += 1;
      mostToA = Math.max(mostToA, inFlightToA);
      await new Promise<void>((resolve) => release.push(resolve));
      inFlightToA -= 1;
      return ok;
    });
    senderFor(outbox, post).sender.start();
    // B is delivered while A's first delivery hangs.
    await vi.waitFor(() => expect(outbox.get(b.id).state).toBe('delivered'));
    expect(outbox.get(a[0]?.id ?? '').state).toBe('pending');
    for (let i = 0; i < 3; i += 1) {
      await vi.waitFor(() => expect(release.length).toBe(1));
      release.shift()?.();
    }
    await vi.waitFor(() => expect(outbox.get(a[2]?.id ?? '').state).toBe('delivered'));
    expect(mostToA).toBe(1);
    const toA = sent.filter((each) => each.url.includes('wh_a'));
    expect(toA.map((each) => each.headers['webhook-id'])).toEqual(a.map((each) => each.id));
  });

  it('sleeps until the next delivery is due, not a whole poll interval', async () => {
    const outbox = new MemoryOutbox();
    const delivery = outbox.add('wh_a', { dueInMs: 150 });
    const { post } = recording();
    const started = Date.now();
    senderFor(outbox, post, { pollIntervalMs: 10_000 }).sender.start();
    await vi.waitFor(() => expect(outbox.get(delivery.id).state).toBe('delivered'), 3000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('is woken early by wake(), without waiting for its poll interval', async () => {
    const outbox = new MemoryOutbox();
    const { post } = recording();
    const { sender } = senderFor(outbox, post, { pollIntervalMs: 60_000 });
    sender.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const delivery = outbox.add('wh_a');
    sender.wake();
    await vi.waitFor(() => expect(outbox.get(delivery.id).state).toBe('delivered'), 1000);
  });

  it('survives a database that fails: logs, waits, carries on', async () => {
    const outbox = new MemoryOutbox();
    outbox.failures = { claim: 2, record: 0, nextDue: 2 };
    const delivery = outbox.add('wh_a');
    const { post } = recording();
    const { sender, log } = senderFor(outbox, post);
    sender.start();
    await vi.waitFor(() => expect(outbox.get(delivery.id).state).toBe('delivered'));
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      'webhook sender: the outbox is unavailable',
    );
  });

  it('sends again, with the same id, when an attempt could not be recorded (lease expiry)', async () => {
    const outbox = new MemoryOutbox();
    outbox.failures = { claim: 0, record: 1, nextDue: 0 };
    const delivery = outbox.add('wh_a');
    const { sent, post } = recording();
    const { sender, log } = senderFor(outbox, post, { leaseMs: 100 });
    sender.start();
    await vi.waitFor(() => expect(outbox.get(delivery.id).state).toBe('delivered'));
    expect(sent.map((each) => each.headers['webhook-id'])).toEqual([delivery.id, delivery.id]);
    expect(log.error).toHaveBeenCalledTimes(1);
  });

  it('treats a post that throws as a failed attempt', async () => {
    const outbox = new MemoryOutbox();
    const delivery = outbox.add('wh_a');
    let calls = 0;
    const post: PostDelivery = () =>
      ++calls === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(ok);
    senderFor(outbox, post).sender.start();
    await vi.waitFor(() => expect(outbox.get(delivery.id).state).toBe('delivered'));
    expect(outbox.get(delivery.id).attempts[0]?.error).toMatch(/boom/);
  });

  it('closes without hanging: a stuck attempt is abandoned after the grace period and due again', async () => {
    const outbox = new MemoryOutbox();
    const delivery = outbox.add('wh_a');
    const post: PostDelivery = (_url, _body, _headers, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () =>
          resolve({ status: null, error: 'abandoned: the service is stopping', excerpt: '' }),
        );
      });
    const { sender } = senderFor(outbox, post, { closeGraceMs: 100 });
    sender.start();
    await vi.waitFor(() => expect(outbox.get(delivery.id).leasedUntil).toBeGreaterThan(0));
    const started = Date.now();
    await sender.close();
    expect(Date.now() - started).toBeLessThan(1000);
    const [attempt] = outbox.get(delivery.id).attempts;
    expect(attempt?.error).toMatch(/abandoned/);
    // Due at once, for another instance or the next start.
    expect(Date.parse(attempt?.next_attempt_at ?? '')).toBeLessThanOrEqual(Date.now());
    expect(outbox.get(delivery.id).state).toBe('pending');
  });

  it('lets an attempt finish within the grace period on close', async () => {
    const outbox = new MemoryOutbox();
    const delivery = outbox.add('wh_a');
    const post: PostDelivery = () => new Promise((resolve) => setTimeout(() => resolve(ok), 100));
    const { sender } = senderFor(outbox, post, { closeGraceMs: 2000 });
    sender.start();
    await vi.waitFor(() => expect(outbox.get(delivery.id).leasedUntil).toBeGreaterThan(0));
    await sender.close();
    expect(outbox.get(delivery.id).state).toBe('delivered');
  });

  it('takes no claim (a write) while nothing is due, only reads', async () => {
    const outbox = new MemoryOutbox();
    outbox.add('wh_a', { dueInMs: 60_000 });
    const claim = vi.spyOn(outbox, 'claimDueOutbox');
    const nextDue = vi.spyOn(outbox, 'nextOutboxDue');
    const { post } = recording();
    senderFor(outbox, post, { pollIntervalMs: 10 }).sender.start();
    await vi.waitFor(() => expect(nextDue.mock.calls.length).toBeGreaterThanOrEqual(5));
    expect(claim).not.toHaveBeenCalled();
  });

  it('claims nothing after close', async () => {
    const outbox = new MemoryOutbox();
    const { sent, post } = recording();
    const { sender } = senderFor(outbox, post);
    sender.start();
    await sender.close();
    outbox.add('wh_a');
    sender.wake();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toHaveLength(0);
  });
});

describe('closing the webhook sender', () => {
  it('does not wait for a claim stuck on a database that does not answer', async () => {
    const outbox = new MemoryOutbox();
    outbox.add('wh_a');
    let claims = 0;
    outbox.claimDueOutbox = () => {
      claims += 1;
      return new Promise(() => undefined);
    };
    const { post } = recording();
    const { sender } = senderFor(outbox, post, { closeGraceMs: 100 });
    sender.start();
    await vi.waitFor(() => expect(claims).toBe(1));
    const started = Date.now();
    await sender.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('does not wait for an attempt whose record cannot be written', async () => {
    const outbox = new MemoryOutbox();
    const delivery = outbox.add('wh_a');
    outbox.recordOutboxAttempt = () => new Promise(() => undefined);
    const post: PostDelivery = (_url, _body, _headers, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () =>
          resolve({ status: null, error: 'abandoned', excerpt: '' }),
        );
      });
    const { sender } = senderFor(outbox, post, { closeGraceMs: 100 });
    sender.start();
    await vi.waitFor(() => expect(outbox.get(delivery.id).leasedUntil).toBeGreaterThan(0));
    const started = Date.now();
    await sender.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
