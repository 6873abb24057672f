/**
 * The outbox as the sender sees it (WebhookOutbox on both stores): only the earliest pending
 * delivery of each endpoint is claimed, when due and not leased; a given-up delivery stops
 * blocking the next; an attempt is recorded; two stores on one database claiming at once
 * never get the same delivery; the outbox write rolls back with its unit of work; and
 * this process is told when deliveries were queued.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebhookEvent } from '../../contract/webhooks';
import { CREATE_APP, editOk, ok } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import type { Store } from '../store/store';
import type { AttemptResult, DueOutboxMessage } from '../store/outbox/webhook-outbox';
import { testDelivery } from '../domain/webhook-records';

const T0 = '2026-11-22T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1_000).toISOString();
const LEASE_MS = 30_000;

let service: TestService;
let store: Store;

beforeEach(async () => {
  service = await startTestService({ clock: () => new Date(T0) });
  store = service.store;
});
afterEach(async () => {
  await service.close();
});

async function newEndpoint(events: WebhookEvent[] = ['config.published']): Promise<string> {
  const created = await ok(service, service.adminKey, 'createWebhook', {
    payload: { url: `https://hooks.example.com/${events.length}`, events },
  });
  return created.id;
}

/** Queues `count` test deliveries to the endpoint, oldest first; their ids. */
async function queue(webhookId: string, count: number, when = T0): Promise<string[]> {
  const webhook = await store.getWebhook(service.account.account_id, webhookId);
  if (!webhook) throw new Error('no such endpoint');
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const delivery = testDelivery(webhook, when);
    await store.insertOutboxMessage(delivery);
    ids.push(delivery.id);
  }
  return ids;
}

const ids = (claimed: readonly DueOutboxMessage[]) => claimed.map((delivery) => delivery.id);

function delivered(when: string): AttemptResult {
  return { at: when, delivered: true, response_status: 200, error: null, next_attempt_at: null };
}

function failedAttempt(when: string, next: string | null): AttemptResult {
  return {
    at: when,
    delivered: false,
    response_status: 503,
    error: 'HTTP 503',
    next_attempt_at: next,
  };
}

async function statusOf(id: string) {
  const [row] = await service.rows<Record<string, unknown>>(
    'SELECT status, attempts, next_attempt_at, last_attempt_at, response_status, error, lease_until FROM webhook_deliveries WHERE id = ?',
    id,
  );
  return { ...row, attempts: Number(row?.attempts) };
}

describe('claimDueOutbox', () => {
  it("claims each endpoint's earliest pending delivery only, with what the sender needs", async () => {
    const a = await newEndpoint();
    const b = await newEndpoint(['ab_test.changed']);
    const [a1, a2, a3] = await queue(a, 3);
    const [b1, b2] = await queue(b, 2);
    const claimed = await store.claimDueOutbox(T0, 10, LEASE_MS);
    expect(ids(claimed)).toEqual([a1, b1]);
    const webhook = await store.getWebhook(service.account.account_id, a);
    expect(claimed[0]).toEqual({
      id: a1,
      webhook_id: a,
      account_id: service.account.account_id,
      url: webhook?.url,
      secret: webhook?.secret,
      event: 'webhook.test',
      payload: JSON.stringify({
        type: 'webhook.test',
        timestamp: T0,
        data: { webhook: { id: a } },
      }),
      attempts: 0,
      created_at: T0,
    });
    // Leased and unsent: nothing else of either endpoint.
    expect(await store.claimDueOutbox(at(1), 10, LEASE_MS)).toEqual([]);

    await store.recordOutboxAttempt(a1 as string, delivered(at(1)));
    expect(ids(await store.claimDueOutbox(at(2), 10, LEASE_MS))).toEqual([a2]);
    await store.recordOutboxAttempt(a2 as string, delivered(at(2)));
    await store.recordOutboxAttempt(b1 as string, delivered(at(2)));
    expect(ids(await store.claimDueOutbox(at(3), 10, LEASE_MS))).toEqual([a3, b2]);
  });

  it('keeps a delivery that will be tried again ahead of the later ones; a failed one stops blocking', async () => {
    const a = await newEndpoint();
    const [a1, a2] = await queue(a, 2);
    await store.claimDueOutbox(T0, 10, LEASE_MS);
    await store.recordOutboxAttempt(a1 as string, failedAttempt(at(1), at(6)));
    expect(await statusOf(a1 as string)).toMatchObject({
      status: 'pending',
      attempts: 1,
      next_attempt_at: at(6),
      last_attempt_at: at(1),
      response_status: 503,
      error: 'HTTP 503',
      lease_until: null,
    });
    // Not due yet, and a2 waits behind it: an endpoint gets its events in order.
    expect(await store.claimDueOutbox(at(5), 10, LEASE_MS)).toEqual([]);
    expect(await store.nextOutboxDue()).toBe(at(6));
    const again = await store.claimDueOutbox(at(6), 10, LEASE_MS);
    expect(again.map((d) => [d.id, d.attempts])).toEqual([[a1, 1]]);
    // Given up: failed, and the next one is claimed.
    await store.recordOutboxAttempt(a1 as string, failedAttempt(at(7), null));
    expect(await statusOf(a1 as string)).toMatchObject({
      status: 'failed',
      attempts: 2,
      next_attempt_at: null,
    });
    expect(ids(await store.claimDueOutbox(at(7), 10, LEASE_MS))).toEqual([a2]);
  });

  it('leases a claim: nobody else gets it until the lease ends, then it is claimed again', async () => {
    const a = await newEndpoint();
    const [a1] = await queue(a, 1);
    expect(ids(await store.claimDueOutbox(T0, 10, LEASE_MS))).toEqual([a1]);
    expect(await store.nextOutboxDue()).toBe(at(30));
    expect(await store.claimDueOutbox(at(29), 10, LEASE_MS)).toEqual([]);
    // The sender died mid-attempt: after the lease, the delivery is sent again (at least once).
    expect(ids(await store.claimDueOutbox(at(30), 10, LEASE_MS))).toEqual([a1]);
  });

  it('claims only what is due, at most `limit`, earliest first', async () => {
    const endpoints = [await newEndpoint(), await newEndpoint(), await newEndpoint()];
    const [first] = await queue(endpoints[0] as string, 1, T0);
    const [second] = await queue(endpoints[1] as string, 1, at(1));
    await queue(endpoints[2] as string, 1, at(60));
    expect(await store.nextOutboxDue()).toBe(T0);
    expect(ids(await store.claimDueOutbox(at(2), 1, LEASE_MS))).toEqual([first]);
    expect(ids(await store.claimDueOutbox(at(2), 10, LEASE_MS))).toEqual([second]);
    expect(await store.nextOutboxDue()).toBe(at(32));
  });

  it('answers undefined from nextOutboxDue when nothing is pending', async () => {
    expect(await store.nextOutboxDue()).toBeUndefined();
    const a = await newEndpoint();
    const [a1] = await queue(a, 1);
    await store.claimDueOutbox(T0, 10, LEASE_MS);
    await store.recordOutboxAttempt(a1 as string, delivered(at(1)));
    expect(await store.nextOutboxDue()).toBeUndefined();
    expect(await statusOf(a1 as string)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      next_attempt_at: null,
      response_status: 200,
      error: null,
    });
  });

  it('never gives the same delivery to two stores on one database claiming at once', async () => {
    const second = await service.openSecondStore();
    const endpoints: string[] = [];
    for (let i = 0; i < 8; i++) endpoints.push(await newEndpoint());
    const queued = new Map<string, string[]>();
    for (const endpoint of endpoints) queued.set(endpoint, await queue(endpoint, 5));

    // Each "instance" claims a few at a time and sends them, until nothing is left.
    const sent: { id: string; webhook: string }[] = [];
    const claimedBy = new Map<string, number>();
    const instance = async (outbox: Store, n: number) => {
      for (let idle = 0; idle < 3;) {
        const claimed = await outbox.claimDueOutbox(at(1), 3, 60_000);
        if (claimed.length === 0) {
          idle += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        idle = 0;
        for (const delivery of claimed) {
          expect(claimedBy.has(delivery.id)).toBe(false);
          claimedBy.set(delivery.id, n);
          sent.push({ id: delivery.id, webhook: delivery.webhook_id });
          await outbox.recordOutboxAttempt(delivery.id, delivered(at(1)));
        }
      }
    };
    await Promise.all([instance(store, 1), instance(second, 2), instance(store, 3)]);

    expect(sent).toHaveLength(40);
    expect(new Set(sent.map((each) => each.id)).size).toBe(40);
    // Each endpoint's deliveries were sent in the order they were queued.
    for (const [endpoint, order] of queued) {
      expect(sent.filter((each) => each.webhook === endpoint).map((each) => each.id)).toEqual(
        order,
      );
    }
    expect(new Set(claimedBy.values()).size).toBeGreaterThan(1);
  });
});

describe('the outbox in a unit of work', () => {
  it('writes nothing and tells nobody when the unit of work fails after the event was added', async () => {
    await newEndpoint(['config.published']);
    const listener = vi.fn();
    store.onOutboxQueued(listener);
    const data = vi.fn(() => ({ config: { id: 'cfg_x' } }));
    await expect(
      store.changeConfigs(service.account.account_id, {}, (tx) => {
        tx.addWebhookEvents('config.published', T0, data);
        throw new Error('refused after the event');
      }),
    ).rejects.toThrow('refused after the event');
    expect(await service.rows('SELECT id FROM webhook_deliveries')).toEqual([]);
    expect(listener).not.toHaveBeenCalled();
  });

  it('builds the data only when some endpoint subscribes, once for all of them', async () => {
    await newEndpoint(['ab_test.changed']);
    const data = vi.fn(() => ({ n: 1 }));
    await store.changeConfigs(service.account.account_id, {}, (tx) => {
      tx.addWebhookEvents('config.published', T0, data);
    });
    expect(data).not.toHaveBeenCalled();
    await newEndpoint(['ab_test.changed', 'config.published']);
    await newEndpoint(['config.published']);
    await store.changeConfigs(service.account.account_id, {}, (tx) => {
      tx.addWebhookEvents('config.published', T0, data);
    });
    expect(data).toHaveBeenCalledTimes(1);
    expect(await service.rows('SELECT id FROM webhook_deliveries')).toHaveLength(2);
  });
});

describe('onOutboxQueued', () => {
  it('is called after a commit that queued deliveries (a publish, a test event, a retry), not otherwise', async () => {
    const listener = vi.fn();
    const stop = store.onOutboxQueued(listener);
    // No endpoint yet: a publish queues nothing.
    const draft = await editOk(service, service.adminKey, {
      operations: [CREATE_APP('shop')],
      summary: 'Shop',
    });
    await ok(service, service.adminKey, 'publishConfig', { params: { id: draft.id } });
    expect(listener).not.toHaveBeenCalled();

    const a = await newEndpoint(['config.published']);
    const again = await editOk(service, service.adminKey, {
      operations: [CREATE_APP('more')],
      summary: 'More',
    });
    await ok(service, service.adminKey, 'publishConfig', { params: { id: again.id } });
    expect(listener).toHaveBeenCalledTimes(1);

    const test = await ok(service, service.adminKey, 'sendTestWebhook', { params: { id: a } });
    expect(listener).toHaveBeenCalledTimes(2);

    await store.claimDueOutbox(T0, 10, LEASE_MS);
    await store.recordOutboxAttempt(test.id, failedAttempt(T0, null));
    await ok(service, service.adminKey, 'retryWebhookDelivery', {
      params: { id: a, delivery_id: test.id },
    });
    expect(listener).toHaveBeenCalledTimes(3);

    stop();
    await ok(service, service.adminKey, 'sendTestWebhook', { params: { id: a } });
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
