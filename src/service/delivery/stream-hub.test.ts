/**
 * The stream hub over real sockets (a bare node:http server on 127.0.0.1), with reads from
 * a test double of `DeliveryReads` that counts them: one read per group and change, events
 * only for a new ETag, Last-Event-ID, heartbeats, keys checked again, slow readers dropped,
 * the bound on streams, and the close.
 */
import { createServer, type Server } from 'node:http';

import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import type { DeliveryView } from '../../contract/delivery';

import { openConnection } from '../testing/raw-http';

import { openSse, type SseStream } from '../testing/sse-client';

import type { AppViewRead, DeliveryReads } from './delivery-reads';
import { LiveChangeListeners } from '../store/live-changes/live-changes';

import { eventIdOf } from './sse';

import { DEFAULT_STREAM_SETTINGS, StreamHub, type StreamSettings } from './stream-hub';
import type { ClientKeyRecord } from '../store/records';

const ACCOUNT = 'acc_1';

/** Keys and views in memory, and how often each was read. */
class CountingReads implements DeliveryReads {
  readonly keys = new Map<string, ClientKeyRecord>();
  readonly views = new Map<string, AppViewRead>();
  viewReads = 0;
  keyReads = 0;

  async clientKey(key: string) {
    this.keyReads += 1;
    return this.keys.get(key);
  }

  async appView(accountId: string, appId: string) {
    this.viewReads += 1;
    return this.views.get(`${accountId}/${appId}`);
  }

  /** What the views and keys are now: moves with any change to them. */
  async changeStamp(accountId: string) {
    const views = [...this.views].filter(([at]) => at.startsWith(`${accountId}/`));
    const keys = [...this.keys.values()].filter((key) => key.account_id === accountId);
    return JSON.stringify([views.map(([at, read]) => [at, read.etag]), keys]);
  }

  addKey(key: string, apps: string[] | null = null): void {
    this.keys.set(key, {
      id: `ckey_${key}`,
      account_id: ACCOUNT,
      name: key,
      key,
      apps,
      created_at: '2026-11-26T00:00:00.000Z',
      revoked_at: null,
    });
  }

  /** Publishes a view of `appId` in the config `configId` (its settings: `settings`). */
  publish(appId: string, configId: string, settings: Record<string, string> = {}): DeliveryView {
    const view: DeliveryView = {
      app: { id: appId, name: appId, platform: 'web', enabled: true, settings },
      ab_tests: [],
      config: { id: configId, revision: 1, published_at: '2026-11-26T00:00:00.000Z' },
    };
    this.views.set(`${ACCOUNT}/${appId}`, { view, etag: `"${configId}:${appId}"` });
    return view;
  }
}

interface Rig {
  readonly reads: CountingReads;
  readonly changes: LiveChangeListeners;
  readonly hub: StreamHub;
  readonly server: Server;
  readonly port: number;
  open(key: string, app: string, headers?: Record<string, string>): Promise<SseStream>;
}

let rigs: Rig[] = [];
afterEach(async () => {
  for (const rig of rigs) {
    rig.hub.close();
    await new Promise((resolve) => rig.server.close(resolve));
  }
  rigs = [];
});

async function rig(settings: Partial<StreamSettings> = {}): Promise<Rig> {
  const reads = new CountingReads();
  const changes = new LiveChangeListeners();
  const hub = new StreamHub(reads, changes, { ...DEFAULT_STREAM_SETTINGS, ...settings });
  // What the route does, without Fastify: read, then hand the response to the hub.
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const keyValue = url.searchParams.get('key') ?? '';
    const appId = url.searchParams.get('app') ?? '';
    const changesHeardBefore = hub.changesHeard();
    void (async () => {
      const key = await reads.clientKey(keyValue);
      const read = await reads.appView(ACCOUNT, appId);
      if (!key || !read || hub.full) {
        response.writeHead(key && read ? 503 : 404).end();
        return;
      }
      const lastEventId = request.headers['last-event-id'];
      hub.start(
        response,
        { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
        {
          address: request.socket.remoteAddress ?? '',
          key,
          appId,
          read,
          lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
          changesHeardBefore,
        },
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const made: Rig = {
    reads,
    changes,
    hub,
    server,
    port,
    open: (key, app, headers = {}) =>
      openSse(`http://127.0.0.1:${port}/?key=${key}&app=${app}`, headers),
  };
  rigs.push(made);
  return made;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not ${what} within ${timeoutMs} ms`);
    await sleep(5);
  }
}

describe('the stream hub', () => {
  it('sends the view on connect, then each new view once per group read', async () => {
    const { reads, changes, hub, open } = await rig();
    reads.addKey('k');
    const first = reads.publish('app-a', 'cfg_1');
    const streams = await Promise.all(Array.from({ length: 5 }, () => open('k', 'app-a')));
    for (const stream of streams) {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream');
      const event = await stream.next();
      expect(event).toMatchObject({ event: 'app', id: eventIdOf(first) });
      expect(JSON.parse(event.data)).toEqual(first);
    }
    expect(hub.size).toBe(5);

    const second = reads.publish('app-a', 'cfg_2', { color: 'blue' });
    const readsBefore = reads.viewReads;
    changes.announce(ACCOUNT);
    for (const stream of streams) {
      const event = await stream.next();
      expect(event.id).toBe('cfg_2:1');
      expect(JSON.parse(event.data)).toEqual(second);
    }
    // Five subscribers, one group: one read.
    expect(reads.viewReads - readsBefore).toBe(1);
  });

  it('sends nothing when a change leaves the view as it was, or is of another account', async () => {
    const { reads, changes, open } = await rig();
    reads.addKey('k');
    reads.publish('app-a', 'cfg_1');
    const stream = await open('k', 'app-a');
    await stream.next();
    changes.announce(ACCOUNT);
    changes.announce('acc_other');
    changes.announce(null);
    await sleep(200);
    expect(stream.events).toHaveLength(1);
  });

  it('wakes no group for word from another process that changed none of their views or keys', async () => {
    const { reads, changes, open } = await rig();
    reads.addKey('k');
    reads.publish('app-a', 'cfg_1');
    const stream = await open('k', 'app-a');
    await stream.next();
    // The first word after the streams began wakes them: what came before is unknown.
    let before = reads.viewReads;
    changes.announce(null);
    await until(() => reads.viewReads > before, 'read after the first word');
    before = reads.viewReads;
    const keysBefore = reads.keyReads;
    // A commit of something else (a webhook claim, a key touched), then a publish.
    changes.announce(null);
    reads.publish('app-a', 'cfg_2');
    changes.announce(null);
    expect((await stream.next()).id).toBe('cfg_2:1');
    expect(reads.viewReads - before).toBe(1);
    expect(reads.keyReads - keysBefore).toBe(1);
  });

  it('reads each group of an account once, and only the groups whose view changed send', async () => {
    const { reads, changes, open } = await rig();
    reads.addKey('k');
    reads.publish('app-a', 'cfg_1');
    reads.publish('app-b', 'cfg_1');
    const a = await open('k', 'app-a');
    const b = await open('k', 'app-b');
    await a.next();
    await b.next();
    reads.publish('app-b', 'cfg_2', { size: 'large' });
    const before = reads.viewReads;
    changes.announce(ACCOUNT);
    expect((await b.next()).id).toBe('cfg_2:1');
    await sleep(100);
    expect(a.events).toHaveLength(1);
    expect(reads.viewReads - before).toBe(2);
  });

  it('on reconnect with Last-Event-ID sends the view only when it is not that one', async () => {
    const { reads, open } = await rig();
    reads.addKey('k');
    const view = reads.publish('app-a', 'cfg_1');
    const same = await open('k', 'app-a', { 'last-event-id': eventIdOf(view) });
    expect(same.status).toBe(200);
    await sleep(150);
    expect(same.events).toHaveLength(0);
    const older = await open('k', 'app-a', { 'last-event-id': 'cfg_0:1' });
    expect((await older.next()).id).toBe(eventIdOf(view));
  });

  it('beats every heartbeatMs with a comment line', async () => {
    const { reads, open } = await rig({ heartbeatMs: 50 });
    reads.addKey('k');
    reads.publish('app-a', 'cfg_1');
    const stream = await open('k', 'app-a');
    await stream.next();
    await stream.nextComment(1_000);
    await stream.nextComment(1_000);
    expect(stream.comments()).toBeGreaterThanOrEqual(2);
  });

  it('ends the streams of a revoked key at the next change, and at the next heartbeat', async () => {
    const { reads, changes, hub, open } = await rig({ heartbeatMs: 100 });
    reads.addKey('revoked-on-change');
    reads.addKey('revoked-quietly');
    reads.addKey('kept');
    reads.publish('app-a', 'cfg_1');
    const onChange = await open('revoked-on-change', 'app-a');
    const quietly = await open('revoked-quietly', 'app-a');
    const kept = await open('kept', 'app-a');
    reads.keys.delete('revoked-on-change');
    changes.announce(ACCOUNT);
    await onChange.ended;
    reads.keys.delete('revoked-quietly');
    await quietly.ended;
    await kept.nextComment(1_000);
    expect(kept.isEnded()).toBe(false);
    await until(() => hub.size === 1, 'one stream left');
  });

  it('ends the stream of a key no longer scoped to the app', async () => {
    const { reads, changes, open } = await rig();
    reads.addKey('k', ['app-a']);
    reads.publish('app-a', 'cfg_1');
    const stream = await open('k', 'app-a');
    await stream.next();
    reads.addKey('k', ['app-b']);
    changes.announce(ACCOUNT);
    await stream.ended;
  });

  it('ends the stream when the app is gone from the live config', async () => {
    const { reads, changes, open } = await rig();
    reads.addKey('k');
    reads.publish('app-a', 'cfg_1');
    const stream = await open('k', 'app-a');
    await stream.next();
    reads.views.clear();
    changes.announce(null);
    await stream.ended;
  });

  it('reads again a change heard between the route read and the stream start', async () => {
    const { reads, changes, hub, open } = await rig();
    reads.addKey('k');
    reads.publish('app-a', 'cfg_1');
    reads.publish('app-b', 'cfg_1');
    // The hub listens to changes while it holds a stream.
    await (await open('k', 'app-b')).next();
    // As the route does it, with a change arriving while it reads.
    const server = createServer((_request, response) => {
      const before = hub.changesHeard();
      void (async () => {
        const key = await reads.clientKey('k');
        const read = await reads.appView(ACCOUNT, 'app-a');
        if (!key || !read) throw new Error('missing');
        reads.publish('app-a', 'cfg_2');
        changes.announce(ACCOUNT);
        hub.start(
          response,
          { 'content-type': 'text/event-stream' },
          {
            address: '127.0.0.1',
            key,
            appId: 'app-a',
            read,
            lastEventId: undefined,
            changesHeardBefore: before,
          },
        );
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const first = await openSse(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect((await first.next()).id).toBe('cfg_1:1');
      expect((await first.next()).id).toBe('cfg_2:1');
      first.close();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('drops a subscriber that does not read, and keeps those that do', async () => {
    const { reads, changes, hub, port, open } = await rig({ maxBufferedBytes: 64 * 1024 });
    reads.addKey('k');
    const big = 'x'.repeat(256 * 1024);
    reads.publish('app-a', 'cfg_0', { big });
    const reader = await open('k', 'app-a');
    await reader.next();
    // A client that sends its request and never reads a byte of the answer.
    const stalled = await openConnection(port);
    stalled.socket.pause();
    stalled.socket.write(`GET /?key=k&app=app-a HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await until(() => hub.size === 2, 'two streams');
    let published = 0;
    while (hub.size === 2) {
      published += 1;
      if (published > 200) throw new Error('the stalled subscriber was never dropped');
      reads.publish('app-a', `cfg_${published}`, { big });
      changes.announce(ACCOUNT);
      expect((await reader.next()).id).toBe(`cfg_${published}:1`);
    }
    expect(hub.size).toBe(1);
    // What the stalled one was sent is bounded: the events its buffers took, not all of them.
    stalled.socket.resume();
    await stalled.closed;
    expect(stalled.received().length).toBeLessThan(published * big.length);
    expect(reader.isEnded()).toBe(false);
  });

  it('is full at maxStreams', async () => {
    const { reads, hub, open } = await rig({ maxStreams: 2 });
    reads.addKey('k');
    reads.publish('app-a', 'cfg_1');
    await open('k', 'app-a');
    expect(hub.full).toBe(false);
    await open('k', 'app-a');
    expect(hub.full).toBe(true);
    const refused = await open('k', 'app-a');
    expect(refused.status).toBe(503);
  });

  it('ends every stream on close, so that the server closes at once', async () => {
    const { reads, hub, server, open } = await rig();
    reads.addKey('k');
    reads.publish('app-a', 'cfg_1');
    const streams = await Promise.all([open('k', 'app-a'), open('k', 'app-a')]);
    const started = Date.now();
    hub.close();
    await Promise.all(streams.map((stream) => stream.ended));
    await new Promise((resolve) => server.close(resolve));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(hub.full).toBe(true);
    rigs = rigs.filter((candidate) => candidate.server !== server);
  });
});
