/**
 * The client against a stand-in for the delivery endpoints on 127.0.0.1: first view, local
 * lookups, pushes, reconnection with Last-Event-ID, the GET fallback with its ETag, bad
 * data, and close(). Short reconnect delays keep it fast; their timing is in
 * client-reconnect.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assign } from '../contract/assignment';
import { API_BASE_PATH } from '../contract/endpoints';
import {
  ClientError,
  createClient,
  type ClientOptions,
  type DeliveryView,
  type ProvisioningClient,
} from './provisioning-client';
import {
  appEvent,
  eventIdOf,
  sampleView,
  startDeliveryStub,
  STUB_KEY,
  type DeliveryStub,
} from './testing/delivery-stub';

let stub: DeliveryStub;
let clients: ProvisioningClient[];
let errors: ClientError[];

beforeEach(async () => {
  stub = await startDeliveryStub(sampleView(1));
  clients = [];
  errors = [];
});

afterEach(async () => {
  for (const client of clients) client.close();
  await stub.close();
});

const FAST = { initialDelayMs: 20, maxDelayMs: 80, healthyAfterMs: 10_000, idleTimeoutMs: 5000 };

function open(options: Partial<ClientOptions> = {}): ProvisioningClient {
  const client = createClient({
    baseUrl: stub.baseUrl,
    clientKey: STUB_KEY,
    app: 'web',
    onError: (error) => errors.push(error),
    reconnect: FAST,
    ...options,
  });
  clients.push(client);
  return client;
}

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const streamRequests = () => stub.requests.filter((request) => request.path.includes('/stream'));
const viewRequests = () => stub.requests.filter((request) => request.path.includes('/apps/'));

describe('the client library', () => {
  it('reads the service under the API base path, whichever way the address is given', async () => {
    expect(API_BASE_PATH).toBe('/api/v1');
    for (const baseUrl of [stub.baseUrl, `${stub.baseUrl}/`, `${stub.baseUrl}/api/v1/`]) {
      await open({ baseUrl }).ready();
    }
    expect(streamRequests().map((request) => request.path)).toEqual(
      Array(3).fill(`/api/v1/delivery/${STUB_KEY}/stream?app=web`),
    );
  });

  it('is ready with the stream first event, then answers lookups locally', async () => {
    const client = open();
    expect(client.view()).toBeUndefined();
    expect(client.settings('u1')).toEqual({});
    const view = await client.ready();
    expect(view).toEqual(sampleView(1));
    expect(client.view()).toEqual(sampleView(1));
    const requestsBefore = stub.requests.length;
    const seen = new Set<string | undefined>();
    for (let index = 0; index < 200; index += 1) {
      const unit = `user-${index}`;
      const expected = assign(sampleView(1), unit);
      expect(client.settings(unit)).toEqual(expected.settings);
      const variant = client.variant('checkout', unit);
      expect(variant).toBe(expected.tests.find((test) => test.id === 'checkout')?.variant);
      seen.add(variant);
      expect(client.variant('paused_test', unit)).toBeUndefined();
      expect(client.variant('no_such_test', unit)).toBeUndefined();
    }
    expect(seen).toEqual(new Set(['control', 'one_page']));
    // No request for the lookups: only the exposures, in batches (the first 50 as soon as
    // they wait, the others by flush()).
    await client.flush();
    expect(stub.requests.slice(requestsBefore).map((request) => request.path)).toEqual(
      Array(2).fill(`/api/v1/delivery/${STUB_KEY}/events`),
    );
    const exposed = stub.eventBatches.flatMap(
      ({ body }) => (JSON.parse(body) as { events: { unit: string }[] }).events,
    );
    // The two requests may arrive in either order.
    expect(exposed.map((event) => event.unit).sort()).toEqual(
      Array.from({ length: 200 }, (_, index) => `user-${index}`).sort(),
    );
    expect(errors).toEqual([]);
  });

  it('tells subscribers of each new view, and no more once unsubscribed', async () => {
    const client = open();
    await client.ready();
    const heard: DeliveryView[] = [];
    const unsubscribe = client.subscribe((view) => heard.push(view));
    stub.publish(sampleView(2, 'bonjour'));
    await until(() => heard.length === 1);
    expect(client.settings('anyone').greeting).toMatch(/bonjour|hi/);
    expect(client.view()?.config.revision).toBe(2);
    // The same view again is no news.
    stub.write(appEvent(sampleView(2, 'bonjour')));
    stub.publish(sampleView(3, 'hola'));
    await until(() => heard.length === 2);
    expect(heard.map((view) => view.config.revision)).toEqual([2, 3]);
    unsubscribe();
    stub.publish(sampleView(4));
    await until(() => client.view()?.config.revision === 4);
    expect(heard).toHaveLength(2);
  });

  it('reconnects after the stream drops, sending the last event id', async () => {
    const client = open();
    await client.ready();
    stub.publish(sampleView(2));
    await until(() => client.view()?.config.revision === 2);
    const reconnect = stub.nextRequest(`/api/v1/delivery/${STUB_KEY}/stream`);
    stub.dropStreams();
    const request = await reconnect;
    expect(request.headers['last-event-id']).toBe(eventIdOf(sampleView(2)));
    await until(() => stub.streams.size === 1);
    // Reconnected: the next publish arrives on the new stream.
    stub.publish(sampleView(3));
    await until(() => client.view()?.config.revision === 3);
    expect(streamRequests()).toHaveLength(2);
    expect(streamRequests()[0]?.headers['last-event-id']).toBeUndefined();
    expect(viewRequests()).toHaveLength(0);
    expect(errors).toEqual([]);
  });

  it('reports malformed events, keeps the last good view, and resumes from its id', async () => {
    const client = open();
    await client.ready();
    const heard: DeliveryView[] = [];
    client.subscribe((view) => heard.push(view));
    const broken = sampleView(2) as unknown as { ab_tests: { variants: { weight: unknown }[] }[] };
    const firstVariant = broken.ab_tests[0]?.variants[0];
    if (firstVariant) firstVariant.weight = '50';
    stub.write('event: app\nid: cfg_1:2\ndata: {not json\n\n');
    stub.write(`event: app\nid: cfg_1:2\ndata: ${JSON.stringify(broken)}\n\n`);
    stub.write(
      `event: app\nid: cfg_1:2\ndata: ${JSON.stringify({ ...sampleView(2), app: 7 })}\n\n`,
    );
    const otherApp = sampleView(2);
    otherApp.app.id = 'ios';
    stub.write(appEvent(otherApp));
    await until(() => errors.length === 4);
    expect(errors.map((error) => error.kind)).toEqual(Array(4).fill('malformed'));
    expect(errors.map((error) => error.message)).toEqual([
      'stream: an app event whose data is not JSON',
      'stream: view.ab_tests[0].variants[0].weight: not a number',
      'stream: view.app: not an object',
      'stream: a view of app ios',
    ]);
    expect(client.view()).toEqual(sampleView(1));
    expect(client.settings('u1')).toEqual(assign(sampleView(1), 'u1').settings);
    expect(heard).toEqual([]);
    // Other events and comments are not views: ignored without a word.
    stub.write('event: other\ndata: {}\n\n: heartbeat\n\n');
    // Still connected, and a reconnection asks from the last good view on.
    const reconnect = stub.nextRequest(`/api/v1/delivery/${STUB_KEY}/stream`);
    stub.dropStreams();
    expect((await reconnect).headers['last-event-id']).toBe(eventIdOf(sampleView(1)));
    expect(errors).toHaveLength(4);
  });

  it('refuses a stream that sends an endless event, and reconnects', async () => {
    const client = open();
    await client.ready();
    const reconnect = stub.nextRequest(`/api/v1/delivery/${STUB_KEY}/stream`);
    stub.write(`data: ${'x'.repeat(1024 * 1024 + 10)}`);
    await reconnect;
    expect(errors.map((error) => error.kind)).toEqual(['malformed']);
    expect(client.view()).toEqual(sampleView(1));
  });

  it('falls back to GET when the stream cannot open, revalidating with the ETag', async () => {
    stub.streamRefusal = { status: 503, headers: { 'retry-after': '0' } };
    const client = open();
    expect(await client.ready()).toEqual(sampleView(1));
    await until(() => viewRequests().length >= 2);
    const [first, second] = viewRequests();
    expect(first?.headers['if-none-match']).toBeUndefined();
    expect(second?.headers['if-none-match']).toBe(`"${eventIdOf(sampleView(1))}"`);
    // A new view reaches the client by GET while the stream stays refused.
    const heard: DeliveryView[] = [];
    client.subscribe((view) => heard.push(view));
    stub.view = sampleView(2);
    await until(() => heard.length === 1);
    expect(client.view()?.config.revision).toBe(2);
    expect(errors.every((error) => error.kind === 'http' && error.status === 503)).toBe(true);
    // The stream opens again: the client is back on it.
    stub.streamRefusal = undefined;
    await until(() => stub.streams.size === 1);
    stub.publish(sampleView(3));
    await until(() => client.view()?.config.revision === 3);
  });

  it('falls back to GET when something in between answers the stream with JSON', async () => {
    let streamCalls = 0;
    const proxy: typeof fetch = (input, init) => {
      if (String(input).includes('/stream')) {
        streamCalls += 1;
        return Promise.resolve(Response.json({ hello: 'proxy' }));
      }
      return fetch(input, init);
    };
    const client = open({ fetch: proxy });
    expect(await client.ready()).toEqual(sampleView(1));
    expect(streamCalls).toBe(1);
    expect(errors[0]?.message).toBe('stream: not an event stream (application/json)');
  });

  it('reports a refused key or app, keeps the last view, and does not fall back to GET', async () => {
    const client = open();
    await client.ready();
    stub.streamRefusal = { status: 404 };
    stub.dropStreams();
    await until(() => errors.length >= 2);
    expect(errors.slice(0, 2).map((error) => [error.kind, error.status])).toEqual([
      ['http', 404],
      ['http', 404],
    ]);
    expect(viewRequests()).toHaveLength(0);
    expect(client.view()).toEqual(sampleView(1));
    expect(client.settings('u1')).toEqual(assign(sampleView(1), 'u1').settings);
  });

  it('reconnects when the stream falls silent past the idle timeout', async () => {
    const client = open({ reconnect: { ...FAST, idleTimeoutMs: 150 } });
    await client.ready();
    await until(() => streamRequests().length === 2);
    expect(errors[0]?.message).toBe('stream: nothing for 150 ms');
    // Heartbeats keep a stream alive.
    const beating = setInterval(() => stub.write(': heartbeat\n\n'), 30);
    try {
      const count = streamRequests().length;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(streamRequests().length).toBe(count);
    } finally {
      clearInterval(beating);
    }
  });

  it('tells other subscribers and onError when one subscriber throws', async () => {
    const client = open();
    await client.ready();
    let heard = 0;
    client.subscribe(() => {
      throw new Error('boom');
    });
    client.subscribe(() => (heard += 1));
    stub.publish(sampleView(2));
    await until(() => heard === 1);
    expect(errors.map((error) => [error.kind, error.message])).toEqual([
      ['listener', 'a subscriber threw: Error: boom'],
    ]);
  });

  it('ready() can time out, and rejects on close()', async () => {
    stub.streamRefusal = { status: 404 };
    const client = open();
    const timedOut = client.ready({ timeoutMs: 50 });
    await expect(timedOut).rejects.toMatchObject({ kind: 'timeout' });
    const pending = client.ready();
    client.close();
    await expect(pending).rejects.toMatchObject({ kind: 'closed' });
    await expect(client.ready()).rejects.toBeInstanceOf(ClientError);
  });

  it('close() ends the open stream and makes no request after it', async () => {
    const client = open();
    await client.ready();
    expect(stub.streams.size).toBe(1);
    const heard: DeliveryView[] = [];
    client.subscribe((view) => heard.push(view));
    client.close();
    await until(() => stub.streams.size === 0);
    const count = stub.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stub.requests.length).toBe(count);
    expect(heard).toEqual([]);
    expect(errors).toEqual([]);
    // The last view stays readable.
    expect(client.settings('u1')).toEqual(assign(sampleView(1), 'u1').settings);
  });

  it('refuses options it cannot work with', () => {
    expect(() => createClient({ baseUrl: '', clientKey: STUB_KEY, app: 'web' })).toThrow(
      /baseUrl must be a non-empty string/,
    );
  });
});
