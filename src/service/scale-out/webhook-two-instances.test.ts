/**
 * Two instances sending from one database (two apps, each with its sender and its own
 * connections; PostgreSQL in the `postgres` project, the SQLite file in `node`): every
 * delivery reaches the receiver exactly once, and each endpoint's in order.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { ok } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver';

const sending = {
  schedule: { delaysMs: [50], thenEveryMs: 50, giveUpAfterMs: 60_000 },
  pollIntervalMs: 20,
};

let service: TestService | undefined;
let receiver: WebhookReceiver | undefined;
const cleanUps: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0)) await cleanUp();
  await service?.close();
  await receiver?.close();
});

it('sends each delivery exactly once between two instances, each endpoint in order', async () => {
  // The API without a sender; the two sending instances start once everything is queued.
  service = await startTestService({ webhookUrlPolicy: { allowPrivate: true } });
  const claimed = [0, 0];
  const instances = await Promise.all(
    [0, 1].map(async (n) => {
      const store = await service?.openSecondStore();
      if (!store) throw new Error('no store');
      const claim = store.claimDueOutbox.bind(store);
      store.claimDueOutbox = async (...args) => {
        const due = await claim(...args);
        claimed[n] = (claimed[n] ?? 0) + due.length;
        return due;
      };
      const app = await buildApp({
        store,
        webhookUrlPolicy: { allowPrivate: true },
        webhookSender: sending,
        editPool: { workers: 1, cacheBytes: 1024 * 1024 },
      });
      cleanUps.push(() => app.close());
      return app;
    }),
  );
  receiver = await startWebhookReceiver({ status: 200, afterMs: 50 });

  const on = service;
  const endpoints: string[] = [];
  // More endpoints than one sender keeps in flight (16), each answering after a pause: the
  // other instance finds deliveries left to claim, so both send.
  for (let n = 0; n < 20; n += 1) {
    const path = `/e${n}`;
    const created = await ok(on, on.adminKey, 'createWebhook', {
      payload: { url: receiver.url(path), events: ['config.published'] },
    });
    endpoints.push(created.id);
  }
  const queued = new Map<string, string[]>();
  for (let round = 0; round < 2; round += 1)
    for (const id of endpoints) {
      const delivery = await ok(on, on.adminKey, 'sendTestWebhook', { params: { id } });
      queued.set(id, [...(queued.get(id) ?? []), delivery.id]);
    }
  const all = [...queued.values()].flat();
  await Promise.all(instances.map((app) => app.ready()));

  await vi.waitFor(() => expect(receiver?.received.length).toBeGreaterThanOrEqual(all.length), {
    timeout: 20_000,
    interval: 20,
  });
  // A moment more: a second copy would arrive now.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const ids = receiver.received.map((each) => each.id);
  expect(ids.length).toBe(all.length);
  expect(new Set(ids)).toEqual(new Set(all));
  for (const [id, expected] of queued) {
    const arrived = receiver.received
      .filter((each) => expected.includes(each.id))
      .map((each) => each.id);
    expect(arrived, id).toEqual(expected);
  }
  expect(claimed[0]).toBeGreaterThan(0);
  expect(claimed[1]).toBeGreaterThan(0);
  // Claimed as often as there were deliveries, by the two together: none twice.
  expect((claimed[0] ?? 0) + (claimed[1] ?? 0)).toBe(all.length);
  const rows = await on.rows<{ status: string }>('SELECT status FROM webhook_deliveries');
  expect(rows.every((row) => row.status === 'delivered')).toBe(true);
});
