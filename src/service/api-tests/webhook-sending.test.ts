/**
 * The webhook sender in the running app, on the real store (SQLite, and PostgreSQL in the
 * `postgres` project), against real receivers on 127.0.0.1: a receiver that is down, then
 * failing, then well gets every delivery, in order, each with its own webhook-id on every
 * attempt, signed so that standardwebhooks accepts it; a receiver that never answers is
 * given up on after the timeout and tried again; a redirect is a failure and is not followed;
 * the URL is checked again at send time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebhookDelivery } from '../../contract/webhooks';
import { buildApp } from '../app';
import { CREATE_APP, editOk, ok } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import {
  FLOOD_BYTES,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../testing/webhook-receiver';
import type { RetrySchedule } from '../webhooks/retry-schedule';

/** Fast retries: the schedule's shape at a test's pace. */
const FAST: RetrySchedule = { delaysMs: [50, 100, 150], thenEveryMs: 150, giveUpAfterMs: 60_000 };

let service: TestService | undefined;
const receivers: WebhookReceiver[] = [];
const cleanUps: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  await service?.close();
  service = undefined;
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function sendingService(timeoutMs = 2000): Promise<TestService> {
  service = await startTestService({
    webhookUrlPolicy: { allowPrivate: true },
    webhookSender: { schedule: FAST, timeoutMs, pollIntervalMs: 50 },
  });
  return service;
}

async function receiverFor(initial: number | 'hang' | 'flood' = 200): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver(initial);
  receivers.push(receiver);
  return receiver;
}

async function endpoint(on: TestService, receiver: WebhookReceiver, path = '/hooks') {
  const created = await ok(on, on.adminKey, 'createWebhook', {
    payload: { url: receiver.url(path), events: ['config.published'] },
  });
  receiver.secret = created.secret;
  return created.id;
}

async function publishApp(on: TestService, appId: string) {
  const draft = await editOk(on, on.adminKey, {
    operations: [CREATE_APP(appId)],
    summary: `Add ${appId}`,
  });
  return ok(on, on.adminKey, 'publishConfig', { params: { id: draft.id } });
}

async function deliveriesOf(on: TestService, webhookId: string): Promise<WebhookDelivery[]> {
  return ok(on, on.adminKey, 'listWebhookDeliveries', { params: { id: webhookId } });
}

async function deliveryOf(on: TestService, webhookId: string, id: string) {
  const found = (await deliveriesOf(on, webhookId)).find((each) => each.id === id);
  if (!found) throw new Error(`no delivery ${id}`);
  return found;
}

/** The endpoint's outbox ids, in the order the events happened. */
async function outboxIds(on: TestService, webhookId: string): Promise<string[]> {
  const rows = await on.rows<{ id: string }>(
    'SELECT id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq',
    webhookId,
  );
  return rows.map((row) => row.id);
}

describe('the webhook sender', () => {
  it('gets every delivery through a receiver that is down, then failing, then well: in order, same ids, signed', async () => {
    const on = await sendingService();
    const receiver = await receiverFor(500);
    await receiver.down();
    const webhookId = await endpoint(on, receiver);
    for (const appId of ['web', 'ios', 'android']) await publishApp(on, appId);
    const ids = await outboxIds(on, webhookId);
    expect(ids).toHaveLength(3);

    // Down: connection refused, retried on the schedule; the later ones wait their turn.
    await vi.waitFor(
      async () =>
        expect((await deliveryOf(on, webhookId, ids[0] ?? '')).attempts).toBeGreaterThanOrEqual(2),
      { timeout: 10_000, interval: 20 },
    );
    const refused = await deliveryOf(on, webhookId, ids[0] ?? '');
    expect(refused).toMatchObject({ status: 'pending', response_status: null });
    expect(refused.error).toMatch(/ECONNREFUSED/);
    expect((await deliveryOf(on, webhookId, ids[1] ?? '')).attempts).toBe(0);

    // Up, answering 500 twice; then 200.
    await receiver.up();
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(2), {
      timeout: 10_000,
      interval: 20,
    });
    receiver.behave(200);
    await vi.waitFor(() => expect(receiver.accepted()).toHaveLength(3), {
      timeout: 10_000,
      interval: 20,
    });

    expect(receiver.accepted()).toEqual(ids);
    const failedAnswers = receiver.received.filter((each) => each.answered === 500);
    expect(failedAnswers.length).toBeGreaterThanOrEqual(2);
    // Only the first delivery was tried while it failed: the rest kept their order.
    for (const each of failedAnswers) expect(each.id).toBe(ids[0]);
    for (const each of receiver.received) {
      expect(each.verified).toBe(true);
      expect(each.headers['content-type']).toBe('application/json');
      expect(each.headers['user-agent']).toMatch(/Webhooks/);
      expect(JSON.parse(each.body)).toMatchObject({ type: 'config.published' });
    }
    // The same body on every attempt of a delivery.
    const first = receiver.received.filter((each) => each.id === ids[0]);
    expect(new Set(first.map((each) => each.body)).size).toBe(1);

    // The receiver has answered 200 before the sender records the attempt: wait for the record.
    const records = await vi.waitFor(
      async () => {
        const recorded = await deliveriesOf(on, webhookId);
        for (const record of recorded)
          expect(record).toMatchObject({ status: 'delivered', response_status: 200, error: null });
        return recorded;
      },
      { timeout: 10_000, interval: 20 },
    );
    const firstRecord = records.find((each) => each.id === ids[0]);
    // Two or more refused, the 500s, the 200.
    expect(firstRecord?.attempts).toBeGreaterThanOrEqual(2 + failedAnswers.length + 1);
  });

  it('gives up an attempt that gets no answer after the timeout, and tries again', async () => {
    const on = await sendingService(300);
    const receiver = await receiverFor('hang');
    const webhookId = await endpoint(on, receiver);
    const delivery = await ok(on, on.adminKey, 'sendTestWebhook', { params: { id: webhookId } });
    await vi.waitFor(
      async () => expect((await deliveryOf(on, webhookId, delivery.id)).attempts).toBe(1),
      { timeout: 10_000, interval: 20 },
    );
    const timedOut = await deliveryOf(on, webhookId, delivery.id);
    expect(timedOut).toMatchObject({
      status: 'pending',
      response_status: null,
      error: 'no answer within 300 ms',
    });
    receiver.behave(200);
    await vi.waitFor(
      async () => expect((await deliveryOf(on, webhookId, delivery.id)).status).toBe('delivered'),
      { timeout: 10_000, interval: 20 },
    );
    expect(new Set(receiver.received.map((each) => each.id))).toEqual(new Set([delivery.id]));
    expect(receiver.accepted()).toEqual([delivery.id]);
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    const on = await sendingService();
    const elsewhere = await receiverFor(200);
    const receiver = await receiverFor(200);
    receiver.behave({ redirectTo: elsewhere.url('/elsewhere') });
    const webhookId = await endpoint(on, receiver);
    const delivery = await ok(on, on.adminKey, 'sendTestWebhook', { params: { id: webhookId } });
    await vi.waitFor(
      async () =>
        expect((await deliveryOf(on, webhookId, delivery.id)).attempts).toBeGreaterThanOrEqual(2),
      { timeout: 10_000, interval: 20 },
    );
    expect(await deliveryOf(on, webhookId, delivery.id)).toMatchObject({
      status: 'pending',
      response_status: 307,
      error: 'answered 307 (redirects are not followed)',
    });
    expect(elsewhere.received).toHaveLength(0);
  });

  it('reads an oversized answer only up to its limit: the rest is never taken in', async () => {
    const on = await sendingService();
    const receiver = await receiverFor('flood');
    const webhookId = await endpoint(on, receiver);
    const delivery = await ok(on, on.adminKey, 'sendTestWebhook', { params: { id: webhookId } });
    await vi.waitFor(
      async () =>
        expect((await deliveryOf(on, webhookId, delivery.id)).attempts).toBeGreaterThanOrEqual(2),
      { timeout: 10_000, interval: 20 },
    );
    expect(await deliveryOf(on, webhookId, delivery.id)).toMatchObject({
      status: 'pending',
      response_status: 500,
      error: 'answered 500',
    });
    // Two attempts or more, each dropped after 4 KiB: what got written is the socket
    // buffers' worth, not the 64 MiB on offer each time.
    const attempts = receiver.received.length;
    expect(receiver.floodWritten()).toBeLessThan(attempts * 16 * 1024 * 1024);
    expect(receiver.floodWritten()).toBeLessThan(FLOOD_BYTES);
  });

  it('checks the URL again at send time: an instance that allows no private address calls none', async () => {
    // Registered where private targets are allowed; sent by an instance where they are not.
    service = await startTestService({ webhookUrlPolicy: { allowPrivate: true } });
    const receiver = await receiverFor(200);
    const webhookId = await endpoint(service, receiver);
    const strict = await buildApp({
      store: await service.openSecondStore(),
      webhookUrlPolicy: { allowPrivate: false },
      webhookSender: { schedule: FAST, pollIntervalMs: 50 },
      editPool: { workers: 1, cacheBytes: 1024 * 1024 },
    });
    cleanUps.push(() => strict.close());
    await strict.ready();
    const on = service;
    const delivery = await ok(on, on.adminKey, 'sendTestWebhook', { params: { id: webhookId } });
    await vi.waitFor(
      async () =>
        expect((await deliveryOf(on, webhookId, delivery.id)).attempts).toBeGreaterThanOrEqual(1),
      { timeout: 10_000, interval: 20 },
    );
    const refused = await deliveryOf(on, webhookId, delivery.id);
    expect(refused.response_status).toBeNull();
    expect(refused.error).toMatch(/^URL must be https:/);
    expect(receiver.received).toHaveLength(0);
  });
});
