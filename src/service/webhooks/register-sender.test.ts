/**
 * The sender in a Fastify app's life: not running before ready, woken by the outbox's
 * in-process word, stopped by close. (The app on the real stores: api-tests/webhook-sending.)
 */
import Fastify from 'fastify';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { MemoryOutbox } from '../testing/memory-outbox';
import { registerWebhookSender } from './register-sender';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

it('starts on ready, wakes on queued deliveries, stops on close', async () => {
  const hits: string[] = [];
  const receiver = createServer((request, response) => {
    hits.push(String(request.headers['webhook-id']));
    request.resume();
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
  const port = (receiver.address() as AddressInfo).port;

  const listeners = new Set<() => void>();
  const memory = new MemoryOutbox();
  const outbox = Object.assign(memory, {
    onOutboxQueued(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  const queue = () => {
    const delivery = memory.add('wh_a');
    // The double's URLs are https: to made-up hosts; this one goes to the local receiver.
    Object.assign(delivery, { url: `http://127.0.0.1:${port}/hooks` });
    for (const listener of listeners) listener();
    return delivery.id;
  };

  const app = Fastify();
  registerWebhookSender(app, outbox, () => new Date(), {
    policy: { allowPrivate: true },
    // A poll far longer than the test: only the wake-up can explain a prompt send.
    pollIntervalMs: 60_000,
  });
  closers.push(() => app.close());
  const early = queue();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(hits).toEqual([]);

  await app.ready();
  await vi.waitFor(() => expect(hits).toEqual([early]), 2000);
  const woken = queue();
  await vi.waitFor(() => expect(hits).toEqual([early, woken]), 2000);

  await app.close();
  expect(listeners.size).toBe(0);
  queue();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(hits).toHaveLength(2);
});
