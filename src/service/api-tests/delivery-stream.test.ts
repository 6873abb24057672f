/**
 * GET /delivery/{client_key}/stream?app=ID (docs/delivery.md, "Push"), over a real listening
 * server on 127.0.0.1 (inject does not stream): the view on connect, a new event after each
 * publish, activate and A/B step that changes it and none otherwise, Last-Event-ID,
 * heartbeats, a revoked key, the refusals before the stream, the bound on streams, slow
 * readers dropped, one count against the rate limit, and a close that does not wait.
 */
import { Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { deliveryViewSchema } from '../../contract/delivery';
import { API_BASE_PATH } from '../../contract/endpoints';
import { problemSchema } from '../../contract/problem';
import { DEFAULT_DELIVERY_RATE_LIMIT } from '../plugins/rate-limit';
import { DELIVERY_NOT_FOUND_DETAIL } from '../routes/delivery-routes';
import { editOk, ok, send, SHOP_YAML, type EditBody } from '../testing/api';
import { openConnection } from '../testing/raw-http';
import { openSse, type SseStream } from '../testing/sse-client';
import {
  startTestService,
  type TestService,
  type TestServiceOptions,
} from '../testing/test-service';

let service: TestService | undefined;
let streams: SseStream[] = [];

afterEach(async () => {
  for (const stream of streams) stream.close();
  streams = [];
  await service?.close();
  service = undefined;
});

interface Running {
  readonly service: TestService;
  readonly admin: string;
  readonly base: string;
  readonly port: number;
  clientKey(apps?: string[]): Promise<{ id: string; key: string }>;
  stream(
    key: string,
    app: string | undefined,
    headers?: Record<string, string>,
    from?: string,
  ): Promise<SseStream>;
  publish(operations: EditBody['operations'], summary: string): Promise<string>;
}

async function start(options: TestServiceOptions = {}): Promise<Running> {
  const running = await startTestService({ initialYaml: SHOP_YAML, ...options });
  service = running;
  await running.app.listen({ port: 0, host: '127.0.0.1' });
  const address = running.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const base = `http://127.0.0.1:${port}${API_BASE_PATH}`;
  const admin = running.adminKey;
  return {
    service: running,
    admin,
    base,
    port,
    clientKey: (apps) =>
      ok(running, admin, 'createClientKey', {
        payload: { name: 'Apps', ...(apps ? { apps } : {}) },
      }),
    async stream(key, app, headers = {}, from) {
      const query = app === undefined ? '' : `?app=${encodeURIComponent(app)}`;
      // `from`: the client's own loopback address (127.0.0.2, …), a device of its own.
      const agent = from === undefined ? undefined : new Agent({ localAddress: from });
      const opened = await openSse(
        `${base}/delivery/${key}/stream${query}`,
        headers,
        agent ? { agent } : {},
      );
      streams.push(opened);
      return opened;
    },
    async publish(operations, summary) {
      const draft = await editOk(running, admin, { operations, summary });
      return (await ok(running, admin, 'publishConfig', { params: { id: draft.id } })).id;
    },
  };
}

const viewOf = (data: string) => deliveryViewSchema.parse(JSON.parse(data));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('GET /delivery/{client_key}/stream', () => {
  it('sends the view the GET answers on connect, as text/event-stream with no-cache', async () => {
    const { service: running, clientKey, stream } = await start();
    const { key } = await clientKey();
    const opened = await stream(key, 'checkout', { origin: 'https://shop.example.com' });
    expect(opened.status).toBe(200);
    expect(opened.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(opened.headers['cache-control']).toBe('no-cache');
    // What the onRequest hooks set comes with the stream: CORS for any origin, security headers.
    expect(opened.headers['access-control-allow-origin']).toBe('*');
    expect(opened.headers['x-content-type-options']).toBe('nosniff');
    const event = await opened.next();
    expect(event.event).toBe('app');
    const get = await send(running, undefined, 'getDeliveryView', {
      params: { client_key: key, app_id: 'checkout' },
    });
    expect(viewOf(event.data)).toEqual(JSON.parse(get.body));
    expect(event.id).toBe(`${running.account.live_config_id}:1`);
  });

  it('sends the new view after a publish, to every app of the account (the live config changed)', async () => {
    const { clientKey, stream, publish } = await start();
    const { key } = await clientKey();
    const checkout = await stream(key, 'checkout');
    const ios = await stream(key, 'ios-app');
    await checkout.next();
    await ios.next();
    const published = await publish(
      [{ update_app: [{ id: 'checkout', settings: { theme: 'dark' } }] }],
      'Dark checkout',
    );
    // How soon it arrives is a bench figure (publish → event); here: that it arrives.
    const event = await checkout.next(10_000);
    expect(event.id).toBe(`${published}:1`);
    expect(viewOf(event.data).app.settings.theme).toBe('dark');
    // The view names the live config, so the iOS app's changed too.
    const other = await ios.next(10_000);
    expect(viewOf(other.data).config.id).toBe(published);
    expect(viewOf(other.data).app.settings).toEqual({});
  });

  it('sends nothing for what changes no live view: a draft, another key revoked, another account', async () => {
    const { service: running, admin, clientKey, stream } = await start();
    const { key } = await clientKey();
    const other = await clientKey();
    const opened = await stream(key, 'checkout');
    await opened.next();
    await editOk(running, admin, {
      operations: [{ update_app: [{ id: 'checkout', name: 'Only a draft' }] }],
      summary: 'A draft',
    });
    await ok(running, admin, 'revokeClientKey', { params: { id: other.id } });
    const elsewhere = await running.otherAccount();
    await editOk(running, elsewhere.key, {
      operations: [{ create_app: [{ id: 'checkout', name: 'Theirs', platform: 'web' }] }],
      summary: 'Their app',
    });
    await sleep(300);
    expect(opened.events).toHaveLength(1);
  });

  it('sends the earlier view again after an activate (a rollback)', async () => {
    const { service: running, admin, clientKey, stream, publish } = await start();
    const first = running.account.live_config_id;
    await publish([{ update_app: [{ id: 'checkout', name: 'Checkout 2' }] }], 'Rename');
    const { key } = await clientKey();
    const opened = await stream(key, 'checkout');
    expect(viewOf((await opened.next()).data).app.name).toBe('Checkout 2');
    await ok(running, admin, 'activateConfig', { params: { id: first } });
    const event = await opened.next(1_000);
    expect(event.id).toBe(`${first}:1`);
    expect(viewOf(event.data).app.name).toBe('Checkout');
  });

  it('sends the view after each A/B step on the live config: end, start, promote', async () => {
    const { service: running, admin, clientKey, stream } = await start();
    const { key } = await clientKey();
    const checkout = await stream(key, 'checkout');
    const ios = await stream(key, 'ios-app');
    expect(viewOf((await checkout.next()).data).ab_tests.map((test) => test.id)).toEqual([
      'bigger-button',
    ]);
    await ios.next();

    // Each step publishes a new live config: both apps' views change with it.
    const step = async (operations: EditBody['operations']) => {
      const result = await editOk(running, admin, { operations });
      const [a, b] = [await checkout.next(1_000), await ios.next(1_000)];
      expect([a.id, b.id]).toEqual([`${result.id}:1`, `${result.id}:1`]);
      return [viewOf(a.data), viewOf(b.data)] as const;
    };
    const [ended] = await step([{ end_ab_test: [{ id: 'bigger-button' }] }]);
    expect(ended.ab_tests).toEqual([]);
    const [, started] = await step([{ start_ab_test: [{ id: 'onboarding' }] }]);
    expect(started.ab_tests.map((test) => test.id)).toEqual(['onboarding']);
    const [promoted] = await step([{ promote_ab_test: [{ id: 'bigger-button', variant: 'big' }] }]);
    expect(promoted.app.settings.button_size).toBe('large');
  });

  it('on reconnect with the Last-Event-ID of the view sends nothing until it changes', async () => {
    const { clientKey, stream, publish } = await start();
    const { key } = await clientKey();
    const first = await stream(key, 'checkout');
    const event = await first.next();

    const again = await stream(key, 'checkout', { 'last-event-id': event.id ?? '' });
    expect(again.status).toBe(200);
    await sleep(300);
    expect(again.events).toHaveLength(0);
    const older = await stream(key, 'checkout', { 'last-event-id': 'cfg_older:1' });
    expect((await older.next()).id).toBe(event.id);

    const published = await publish(
      [{ update_app: [{ id: 'checkout', settings: { theme: 'blue' } }] }],
      'Blue',
    );
    expect((await again.next(1_000)).id).toBe(`${published}:1`);
  });

  it('sends a comment line every heartbeat', async () => {
    const { clientKey, stream } = await start({ streams: { heartbeatMs: 100 } });
    const { key } = await clientKey();
    const opened = await stream(key, 'checkout');
    await opened.next();
    await opened.nextComment(1_000);
    await opened.nextComment(1_000);
  });

  it('outlives the request timeouts: they bound how long a request takes to arrive, not its answer', async () => {
    const { clientKey, stream } = await start({
      http: {
        headersTimeoutMs: 300,
        requestTimeoutMs: 500,
        keepAliveTimeoutMs: 300,
        trustProxy: false,
      },
      streams: { heartbeatMs: 200 },
    });
    const { key } = await clientKey();
    const opened = await stream(key, 'checkout');
    await opened.next();
    await sleep(2_000);
    await opened.nextComment(1_000);
    expect(opened.isEnded()).toBe(false);
  });

  it('ends the streams of a client key when it is revoked', async () => {
    const { service: running, admin, clientKey, stream } = await start();
    const revoked = await clientKey();
    const kept = await clientKey();
    const doomed = await stream(revoked.key, 'checkout');
    const staying = await stream(kept.key, 'checkout');
    await doomed.next();
    await staying.next();
    await ok(running, admin, 'revokeClientKey', { params: { id: revoked.id } });
    await doomed.ended;
    expect(staying.isEnded()).toBe(false);
    const again = await stream(revoked.key, 'checkout');
    expect(again.status).toBe(404);
  });

  it('answers the GET’s 404 before any stream for an unknown key, app or scope, and 400 without app', async () => {
    const { clientKey, stream } = await start();
    const { key } = await clientKey(['checkout']);
    for (const [streamKey, app] of [
      ['ck_000000000000000000000000', 'checkout'],
      [key, 'no-such-app'],
      [key, 'ios-app'],
    ] as const) {
      const refused = await stream(streamKey, app);
      expect(refused.status).toBe(404);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problemSchema.parse(JSON.parse(refused.body))).toMatchObject({
        code: 'not_found',
        detail: DELIVERY_NOT_FOUND_DETAIL,
      });
    }
    const missing = await stream(key, undefined);
    expect(missing.status).toBe(400);
    expect(problemSchema.parse(JSON.parse(missing.body)).code).toBe('invalid_request');
  });

  it('answers 503 service_busy with Retry-After beyond DELIVERY_MAX_STREAMS, and opens again once one ends', async () => {
    const { clientKey, stream } = await start({ streams: { maxStreams: 2 } });
    const { key } = await clientKey();
    const first = await stream(key, 'checkout');
    await stream(key, 'ios-app');
    const refused = await stream(key, 'checkout');
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    expect(problemSchema.parse(JSON.parse(refused.body)).code).toBe('service_busy');
    first.close();
    await sleep(100);
    expect((await stream(key, 'checkout')).status).toBe(200);
  });

  it('answers 429 with Retry-After beyond the streams of one address, while another address still opens one', async () => {
    const { clientKey, stream } = await start({ streams: { maxStreamsPerAddress: 2 } });
    const { key } = await clientKey();
    const first = await stream(key, 'checkout', {}, '127.0.0.2');
    expect((await stream(key, 'ios-app', {}, '127.0.0.2')).status).toBe(200);
    const refused = await stream(key, 'checkout', {}, '127.0.0.2');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    const problem = problemSchema.parse(JSON.parse(refused.body));
    expect(problem.code).toBe('rate_limited');
    expect(problem.detail).toContain(
      'This address holds its most open streams on this instance (2)',
    );
    expect((await stream(key, 'checkout', {}, '127.0.0.3')).status).toBe(200);
    first.close();
    await first.ended;
    // The hub hears the close a moment after the client: ask until the slot is free.
    let again = await stream(key, 'checkout', {}, '127.0.0.2');
    while (again.status === 429) {
      await sleep(20);
      again = await stream(key, 'checkout', {}, '127.0.0.2');
    }
    expect(again.status).toBe(200);
  });

  it('opens a stream for each of 20 devices behind one address with the default limits', async () => {
    const { clientKey, stream } = await start({ deliveryRateLimit: DEFAULT_DELIVERY_RATE_LIMIT });
    const { key } = await clientKey();
    const devices = await Promise.all(
      Array.from({ length: 20 }, () => stream(key, 'checkout', {}, '127.0.0.2')),
    );
    expect(devices.map((device) => device.status)).toEqual(Array(20).fill(200));
    for (const device of devices) expect((await device.next()).event).toBe('app');
  });

  it('counts a stream once against the delivery rate limit, not its events', async () => {
    const { clientKey, stream, base } = await start({
      deliveryRateLimit: { rps: 0.1, burst: 2 },
      streams: { heartbeatMs: 50 },
    });
    const { key } = await clientKey();
    const opened = await stream(key, 'checkout');
    await opened.next();
    for (let beat = 0; beat < 5; beat++) await opened.nextComment(1_000);
    const second = await fetch(`${base}/delivery/${key}/apps/checkout`);
    expect(second.status).toBe(200);
    const third = await fetch(`${base}/delivery/${key}/apps/checkout`);
    expect(third.status).toBe(429);
  });

  it('drops a subscriber that does not read, and keeps one that does', async () => {
    const blob = 'x'.repeat(200_000);
    const yaml = SHOP_YAML.replace(
      '      theme: light\n',
      `      theme: light\n      blob: ${blob}\n`,
    );
    const {
      service: running,
      admin,
      clientKey,
      stream,
      port,
      publish,
    } = await start({
      initialYaml: yaml,
      streams: { maxBufferedBytes: 64 * 1024 },
    });
    const first = running.account.live_config_id;
    const second = await publish(
      [{ update_app: [{ id: 'checkout', settings: { theme: 'dark' } }] }],
      'Dark',
    );
    const { key } = await clientKey();
    const reader = await stream(key, 'checkout');
    await reader.next();
    const stalled = await openConnection(port);
    stalled.socket.pause();
    stalled.socket.write(
      `GET ${API_BASE_PATH}/delivery/${key}/stream?app=checkout HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    // Rollbacks and roll-forwards, each an event of about 200 KB: far more, in all, than the
    // socket buffers between the two take.
    const switches = 80;
    for (let done = 1; done <= switches; done++) {
      const id = done % 2 === 1 ? first : second;
      await ok(running, admin, 'activateConfig', { params: { id } });
      expect((await reader.next(2_000)).id).toBe(`${id}:1`);
    }
    // Read what was sent: the server has ended the connection, before the last events.
    stalled.socket.resume();
    let dropped = false;
    await Promise.race([stalled.closed.then(() => (dropped = true)), sleep(2_000)]);
    expect(dropped).toBe(true);
    expect(stalled.received().length).toBeLessThan(switches * blob.length);
    expect(reader.isEnded()).toBe(false);
  });

  it('closes at once with streams open: the close ends them', async () => {
    const { service: running, clientKey, stream } = await start();
    const { key } = await clientKey();
    const opened = await Promise.all([stream(key, 'checkout'), stream(key, 'ios-app')]);
    await Promise.all(opened.map((each) => each.next()));
    await running.app.close();
    await Promise.all(opened.map((each) => each.ended));
  });
});
