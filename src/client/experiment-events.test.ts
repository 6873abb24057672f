/**
 * The client's experiment events, under fake timers and a fetch that captures each request:
 * exposures logged once, batches at 50 events or after 2 s, a bounded queue, retries with
 * backoff (and none for a refused batch), the page going away, flush() and close(). The last
 * test sends them over HTTP on 127.0.0.1.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign } from '../contract/assignment';
import { MAX_EVENTS_BODY_BYTES, MAX_EVENTS_PER_BATCH } from '../contract/experiments';
import {
  KEEPALIVE_BYTES,
  MAX_BATCH_BYTES,
  MAX_BATCH_EVENTS,
  REQUEST_TIMEOUT_MS,
} from './event-queue';
import {
  createClient,
  type ClientError,
  type ClientOptions,
  type DeliveryView,
  type ProvisioningClient,
} from './provisioning-client';
import { appEvent, sampleView, startDeliveryStub, STUB_KEY } from './testing/delivery-stub';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const EVENTS_URL = `http://127.0.0.1:9/api/v1/delivery/${STUB_KEY}/events`;

interface Post {
  at: number;
  url: string;
  method: string | undefined;
  contentType: string | null;
  keepalive: boolean;
  body: string;
  events: { id: string }[];
  signal: AbortSignal | null | undefined;
}

type Answer = (post: Post) => Promise<Response>;

const accepted: Answer = (post) =>
  Promise.resolve(
    Response.json({ accepted: post.events.length, duplicates: 0, rejected: [] }, { status: 202 }),
  );
const status =
  (code: number, headers: Record<string, string> = {}): Answer =>
  () =>
    Promise.resolve(new Response('{}', { status: code, headers }));
const offline: Answer = () => Promise.reject(new TypeError('fetch failed'));
/** Hangs until the client gives up on it. */
const hanging: Answer = (post) =>
  new Promise<Response>((_, reject) =>
    post.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
  );

let client: ProvisioningClient | undefined;
let errors: ClientError[];
let posts: Post[];
/** How the next events requests are answered, in order; then `otherwise`. */
let answers: Answer[];
let otherwise: Answer;
let sendView: (view: DeliveryView) => void;

/** Answers the stream with the sample view; captures each events request. */
const fetcher: typeof fetch = (input, init) => {
  const url = String(input);
  if (url.includes('/stream')) {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
    sendView = (view) => controller.enqueue(new TextEncoder().encode(appEvent(view)));
    sendView(sampleView(1));
    return Promise.resolve(
      new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    );
  }
  const text = String(init?.body);
  const post: Post = {
    at: Date.now() - T0,
    url,
    method: init?.method,
    contentType: new Headers(init?.headers).get('content-type'),
    keepalive: init?.keepalive === true,
    body: text,
    events: (JSON.parse(text) as { events: { id: string }[] }).events,
    signal: init?.signal,
  };
  posts.push(post);
  return (answers.shift() ?? otherwise)(post);
};

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
  let count = 0;
  vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
    count += 1;
    return `00000000-0000-4000-8000-${String(count).padStart(12, '0')}`;
  });
  errors = [];
  posts = [];
  answers = [];
  otherwise = accepted;
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function start(options: Partial<ClientOptions> = {}): Promise<ProvisioningClient> {
  client = createClient({
    baseUrl: 'http://127.0.0.1:9',
    clientKey: STUB_KEY,
    app: 'web',
    fetch: fetcher,
    onError: (error) => errors.push(error),
    reconnect: { idleTimeoutMs: 3_600_000 },
    ...options,
  });
  await client.ready();
  return client;
}

/** The id of the n-th event made (from 1). */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (ms = 0) => new Date(T0 + ms).toISOString();
const metric = (event: string, unit: string, n: number, ms = 0, value?: number) => ({
  kind: 'metric',
  event,
  unit,
  ...(value === undefined ? {} : { value }),
  at: at(ms),
  id: id(n),
});
const exposure = (test: string, variant: string, unit: string, n: number, ms = 0) => ({
  kind: 'exposure',
  test,
  variant,
  unit,
  at: at(ms),
  id: id(n),
});
const batch = (events: object[]) => JSON.stringify({ events });
const variantOf = (unit: string, view = sampleView(1)) =>
  assign(view, unit).tests.find((test) => test.id === 'checkout')?.variant;

describe("the client's experiment events", () => {
  it('keeps to the service limits for a batch', () => {
    expect(MAX_BATCH_EVENTS).toBe(MAX_EVENTS_PER_BATCH);
    expect(MAX_BATCH_BYTES).toBe(MAX_EVENTS_BODY_BYTES);
  });

  it('sends a batch when 50 events wait, as text/plain JSON', async () => {
    const app = await start();
    for (let n = 1; n <= 49; n += 1) app.track('purchase', `user-${n}`, n);
    await vi.advanceTimersByTimeAsync(0);
    expect(posts).toEqual([]);
    app.track('signup', 'user-50');
    await vi.advanceTimersByTimeAsync(0);
    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(post?.url).toBe(EVENTS_URL);
    expect(post?.method).toBe('POST');
    expect(post?.contentType).toBe('text/plain');
    expect(post?.keepalive).toBe(false);
    expect(post?.body).toBe(
      batch([
        ...Array.from({ length: 49 }, (_, index) =>
          metric('purchase', `user-${index + 1}`, index + 1, 0, index + 1),
        ),
        metric('signup', 'user-50', 50),
      ]),
    );
    expect(app.eventStats()).toEqual({ queued: 0, sent: 50, dropped: 0, rejected: 0 });
    expect(errors).toEqual([]);
  });

  it('sends what waits 2 s after the first event', async () => {
    const app = await start();
    app.track('click', 'u1');
    app.track('click', 'u2', 2.5);
    await vi.advanceTimersByTimeAsync(1000);
    app.track('click', 'u3');
    await vi.advanceTimersByTimeAsync(999);
    expect(posts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(posts.map((post) => [post.at, post.body])).toEqual([
      [
        2000,
        batch([
          metric('click', 'u1', 1),
          metric('click', 'u2', 2, 0, 2.5),
          metric('click', 'u3', 3, 1000),
        ]),
      ],
    ]);
    // Nothing waits: no more requests.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(posts).toHaveLength(1);
  });

  it('logs an exposure once per test, unit and variant', async () => {
    const app = await start();
    const a = variantOf('user-1');
    const b = variantOf('user-2');
    expect(app.variant('checkout', 'user-1')).toBe(a);
    expect(app.variant('checkout', 'user-1')).toBe(a);
    expect(app.variant('checkout', 'user-2')).toBe(b);
    expect(app.variant('checkout', 'user-1')).toBe(a);
    // Not running, unknown: no variant, nothing logged.
    expect(app.variant('paused_test', 'user-1')).toBeUndefined();
    expect(app.variant('nothing', 'user-1')).toBeUndefined();
    // Weights change: a unit that gets another variant is exposed to it too.
    const moved = sampleView(2);
    const [control, onePage] = moved.ab_tests[0]?.variants ?? [];
    if (control && onePage) [control.weight, onePage.weight] = [0, 100];
    sendView(moved);
    await vi.advanceTimersByTimeAsync(0);
    const unit = a === 'control' ? 'user-1' : 'user-2';
    expect(app.variant('checkout', unit)).toBe('one_page');
    expect(app.variant('checkout', unit)).toBe('one_page');
    await app.flush();
    expect(posts.map((post) => post.body)).toEqual([
      batch([
        exposure('checkout', a ?? '', 'user-1', 1),
        exposure('checkout', b ?? '', 'user-2', 2),
        exposure('checkout', 'one_page', unit, 3),
      ]),
    ]);
  });

  it('remembers the last 10,000 exposures it logged, no more', async () => {
    const heard: string[] = [];
    const app = await start({ trackExposures: false, onExposure: (e) => heard.push(e.unit) });
    for (let n = 0; n <= 10_000; n += 1) app.variant('checkout', `user-${n}`);
    expect(heard).toHaveLength(10_001);
    // user-0 was forgotten to make room; user-1 was not.
    app.variant('checkout', 'user-1');
    app.variant('checkout', 'user-0');
    expect(heard.slice(10_001)).toEqual(['user-0']);
  });

  it('with trackExposures false, sends no exposure but still calls onExposure', async () => {
    const heard: object[] = [];
    const app = await start({ trackExposures: false, onExposure: (e) => heard.push(e) });
    app.variant('checkout', 'user-1');
    app.variant('checkout', 'user-1');
    app.variant('checkout', 'user-2');
    app.track('purchase', 'user-1', 20);
    await app.flush();
    expect(heard).toEqual([
      { test: 'checkout', variant: variantOf('user-1'), unit: 'user-1' },
      { test: 'checkout', variant: variantOf('user-2'), unit: 'user-2' },
    ]);
    expect(posts.map((post) => post.body)).toEqual([
      batch([metric('purchase', 'user-1', 1, 0, 20)]),
    ]);
  });

  it('reports an onExposure that throws, and still sends the exposure', async () => {
    const app = await start({
      onExposure: () => {
        throw new Error('analytics down');
      },
    });
    app.variant('checkout', 'user-1');
    await app.flush();
    expect(errors.map((error) => [error.kind, error.message])).toEqual([
      ['listener', 'onExposure threw: Error: analytics down'],
    ]);
    expect(posts.map((post) => post.body)).toEqual([
      batch([exposure('checkout', variantOf('user-1') ?? '', 'user-1', 1)]),
    ]);
  });

  it('holds at most 1,000 events, dropping the newest and counting them', async () => {
    otherwise = offline;
    const app = await start();
    for (let n = 1; n <= 1005; n += 1) app.track('view', `u${n}`);
    await vi.advanceTimersByTimeAsync(0);
    // The first batch of 50 failed; the queue kept growing while the client waits to retry.
    expect(posts).toHaveLength(1);
    expect(app.eventStats()).toEqual({ queued: 1000, sent: 0, dropped: 5, rejected: 0 });
    otherwise = accepted;
    await vi.advanceTimersByTimeAsync(750);
    // Back online: two batches of 500, the service's most.
    expect(posts.slice(1).map((post) => post.events.length)).toEqual([500, 500]);
    const sent = posts.slice(1).flatMap((post) => post.events.map((event) => event.id));
    expect(sent).toEqual(Array.from({ length: 1000 }, (_, index) => id(index + 1)));
    expect(app.eventStats()).toEqual({ queued: 0, sent: 1000, dropped: 5, rejected: 0 });
  });

  it('keeps each batch within 256 KiB, counting bytes, not characters', async () => {
    otherwise = offline;
    const app = await start();
    // Three bytes a character: about 900 bytes an event. The first fails: the others wait.
    const track = (n: number) => app.track('€'.repeat(100), `${n}:${'€'.repeat(190)}`);
    track(1);
    await vi.advanceTimersByTimeAsync(2000);
    for (let n = 2; n <= 600; n += 1) track(n);
    otherwise = accepted;
    await app.flush();
    const sizes = posts.slice(1).map((post) => new TextEncoder().encode(post.body).length);
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(MAX_BATCH_BYTES);
    const sent = posts.slice(1).flatMap((post) => post.events.map((event) => event.id));
    expect(sent).toEqual(Array.from({ length: 600 }, (_, index) => id(index + 1)));
  });

  it('retries on 503 with backoff and on 429 after Retry-After, the same events', async () => {
    answers = [status(503), status(429, { 'retry-after': '10' })];
    const app = await start();
    app.track('click', 'u1');
    await vi.advanceTimersByTimeAsync(2000);
    expect(posts).toHaveLength(1);
    // The first retry after 750 ms (random 0.5 of 1 s and up); Retry-After outweighs the next.
    await vi.advanceTimersByTimeAsync(749);
    expect(posts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(posts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(9999);
    expect(posts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(posts.map((post) => post.at)).toEqual([2000, 2750, 12_750]);
    expect(new Set(posts.map((post) => post.body))).toEqual(
      new Set([batch([metric('click', 'u1', 1)])]),
    );
    expect(errors.map((error) => [error.kind, error.status])).toEqual([
      ['http', 503],
      ['http', 429],
    ]);
    expect(app.eventStats()).toEqual({ queued: 0, sent: 1, dropped: 0, rejected: 0 });
  });

  it('retries while offline, each wait longer, and not at 50 events meanwhile', async () => {
    otherwise = offline;
    const app = await start();
    app.track('click', 'u1');
    await vi.advanceTimersByTimeAsync(2000 + 750 + 1500 + 3000);
    for (let n = 2; n <= 60; n += 1) app.track('click', `u${n}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(posts.map((post) => post.at)).toEqual([2000, 2750, 4250, 7250]);
    expect(errors.map((error) => error.kind)).toEqual(Array(4).fill('network'));
    otherwise = accepted;
    await vi.advanceTimersByTimeAsync(6000);
    expect(posts.map((post) => [post.at, post.events.length])).toEqual([
      [2000, 1],
      [2750, 1],
      [4250, 1],
      [7250, 1],
      [13_250, 60],
    ]);
  });

  it('never retries a batch refused with 400, 404 or 413: dropped and reported', async () => {
    const app = await start();
    for (const code of [400, 404, 413]) {
      answers = [status(code)];
      app.track('click', 'u1');
      app.track('click', 'u2');
      await app.flush();
    }
    await vi.advanceTimersByTimeAsync(120_000);
    expect(posts).toHaveLength(3);
    expect(errors.map((error) => [error.kind, error.status, error.message])).toEqual([
      ['http', 400, 'events: HTTP 400, 2 dropped'],
      ['http', 404, 'events: HTTP 404, 2 dropped'],
      ['http', 413, 'events: HTTP 413, 2 dropped'],
    ]);
    expect(app.eventStats()).toEqual({ queued: 0, sent: 0, dropped: 6, rejected: 0 });
  });

  it('counts and reports the events the service rejects one by one', async () => {
    answers = [
      () =>
        Promise.resolve(
          Response.json(
            {
              accepted: 1,
              duplicates: 0,
              rejected: [
                { index: 0, code: 'not_running' },
                { index: 2, code: 'invalid' },
              ],
            },
            { status: 202 },
          ),
        ),
    ];
    const app = await start();
    app.variant('checkout', 'user-1');
    app.track('click', 'u1');
    app.track('click', 'u1', Number.NaN);
    await app.flush();
    expect(posts[0]?.events).toHaveLength(3);
    expect(app.eventStats()).toEqual({ queued: 0, sent: 1, dropped: 0, rejected: 2 });
    expect(errors.map((error) => [error.kind, error.message])).toEqual([
      ['rejected', 'events: 2 of 3 rejected (not_running, invalid)'],
    ]);
  });

  it('flush() resolves once the service answered', async () => {
    let answer!: (response: Response) => void;
    answers = [() => new Promise<Response>((resolve) => (answer = resolve))];
    const app = await start();
    app.track('click', 'u1');
    let flushed = false;
    const flushing = app.flush().then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(posts).toHaveLength(1);
    expect(flushed).toBe(false);
    expect(app.eventStats().queued).toBe(1);
    answer(Response.json({ accepted: 1, duplicates: 0, rejected: [] }, { status: 202 }));
    await flushing;
    expect(app.eventStats()).toEqual({ queued: 0, sent: 1, dropped: 0, rejected: 0 });
    // Nothing waiting: flush() sends nothing.
    await app.flush();
    expect(posts).toHaveLength(1);
  });

  it('close() sends what waits, even during a retry wait, then nothing more', async () => {
    answers = [status(503)];
    const app = await start();
    app.track('click', 'u1');
    await vi.advanceTimersByTimeAsync(2000);
    app.track('click', 'u2');
    await app.close();
    expect(posts.map((post) => [post.at, post.body])).toEqual([
      [2000, batch([metric('click', 'u1', 1)])],
      [2000, batch([metric('click', 'u1', 1), metric('click', 'u2', 2, 2000)])],
    ]);
    expect(vi.getTimerCount()).toBe(0);
    app.track('click', 'u3');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(posts).toHaveLength(2);
    expect(app.eventStats()).toEqual({ queued: 0, sent: 2, dropped: 1, rejected: 0 });
  });

  it('close() reports a last send that fails, and does not retry it', async () => {
    otherwise = offline;
    const app = await start();
    app.track('click', 'u1');
    await app.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(posts).toHaveLength(1);
    expect(errors.map((error) => error.kind)).toEqual(['network']);
    expect(app.eventStats()).toEqual({ queued: 1, sent: 0, dropped: 0, rejected: 0 });
  });
});

describe('when the page goes away', () => {
  let win: EventTarget;
  let doc: EventTarget & { visibilityState: string };

  beforeEach(() => {
    win = new EventTarget();
    doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    vi.stubGlobal('addEventListener', win.addEventListener.bind(win));
    vi.stubGlobal('removeEventListener', win.removeEventListener.bind(win));
    vi.stubGlobal('document', doc);
  });

  function hide(): void {
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
  }

  it('sends what waits with keepalive on pagehide, and when the page is hidden', async () => {
    const app = await start();
    app.track('click', 'u1');
    win.dispatchEvent(new Event('pagehide'));
    await vi.advanceTimersByTimeAsync(0);
    expect(posts.map((post) => [post.keepalive, post.body])).toEqual([
      [true, batch([metric('click', 'u1', 1)])],
    ]);
    app.track('click', 'u2');
    doc.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(posts).toHaveLength(1);
    hide();
    await vi.advanceTimersByTimeAsync(0);
    expect(posts.map((post) => [post.keepalive, post.body])).toEqual([
      [true, batch([metric('click', 'u1', 1)])],
      [true, batch([metric('click', 'u2', 2)])],
    ]);
    expect(app.eventStats()).toEqual({ queued: 0, sent: 2, dropped: 0, rejected: 0 });
    // Closed: the page's events no longer concern it.
    await app.close();
    app.track('click', 'u3');
    hide();
    win.dispatchEvent(new Event('pagehide'));
    expect(posts).toHaveLength(2);
  });

  it('sends at most 64 KiB with keepalive, events in plain requests included', async () => {
    otherwise = hanging;
    const app = await start();
    // About 900 bytes an event; the first 50 go out in a plain request that hangs.
    for (let n = 1; n <= 200; n += 1) app.track('€'.repeat(100), `${n}:${'€'.repeat(190)}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(posts.map((post) => [post.keepalive, post.events.length])).toEqual([[false, 50]]);
    win.dispatchEvent(new Event('pagehide'));
    hide();
    await vi.advanceTimersByTimeAsync(0);
    expect(posts).toHaveLength(3);
    const [first, second] = posts.slice(1);
    const firstIds = first?.events.map((event) => event.id) ?? [];
    const secondIds = second?.events.map((event) => event.id) ?? [];
    expect([first?.keepalive, second?.keepalive]).toEqual([true, true]);
    // Each keepalive request as large as allowed; the second goes on after the first.
    for (const post of [first, second]) {
      const size = new TextEncoder().encode(post?.body).length;
      expect(size).toBeLessThanOrEqual(KEEPALIVE_BYTES);
      expect(size).toBeGreaterThan(KEEPALIVE_BYTES - 1000);
    }
    expect([...firstIds, ...secondIds]).toEqual(
      Array.from({ length: firstIds.length + secondIds.length }, (_, index) => id(index + 1)),
    );
    // The hanging requests are given up after a while, so close() ends.
    otherwise = accepted;
    const closing = app.close();
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    await closing;
    expect(app.eventStats().sent).toBe(200 - firstIds.length - secondIds.length);
    expect(errors.map((error) => error.message)).toEqual(Array(3).fill('events: Error: aborted'));
  });
});

describe('timers', () => {
  it('never keep a Node process alive', async () => {
    vi.useRealTimers();
    const app = createClient({
      baseUrl: 'http://127.0.0.1:9',
      clientKey: STUB_KEY,
      app: 'web',
      // The stream never answers; events are taken.
      fetch: (input) =>
        String(input).endsWith('/events')
          ? Promise.resolve(new Response('{}', { status: 202 }))
          : new Promise<Response>(() => undefined),
    });
    client = app;
    const timeouts = () =>
      process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const before = timeouts();
    app.track('click', 'u1');
    expect(app.eventStats().queued).toBe(1);
    expect(timeouts()).toBe(before);
  });
});

describe('events over HTTP', () => {
  it('reach the service as text/plain, the exact events', async () => {
    vi.useRealTimers();
    vi.useFakeTimers({ now: T0, toFake: ['Date'] });
    const stub = await startDeliveryStub(sampleView(1));
    try {
      const app = createClient({ baseUrl: stub.baseUrl, clientKey: STUB_KEY, app: 'web' });
      client = app;
      await app.ready();
      const variant = app.variant('checkout', 'user-7');
      app.track('purchase', 'user-7', 49.9);
      await app.flush();
      expect(stub.eventBatches).toEqual([
        {
          contentType: 'text/plain',
          body: batch([
            exposure('checkout', variant ?? '', 'user-7', 1),
            metric('purchase', 'user-7', 2, 0, 49.9),
          ]),
        },
      ]);
      expect(app.eventStats()).toEqual({ queued: 0, sent: 2, dropped: 0, rejected: 0 });
    } finally {
      await client?.close();
      client = undefined;
      await stub.close();
    }
  });
});
