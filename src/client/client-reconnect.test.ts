/**
 * When the client reconnects, under fake timers and a scripted fetch: exponential delays
 * with jitter up to a cap, starting over after a healthy stream, Retry-After and `retry:`
 * obeyed, and nothing left running after close().
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reconnectDelay, retryAfterMs } from './backoff';
import { createClient, type ClientError, type ProvisioningClient } from './provisioning-client';
import { appEvent, sampleView, STUB_KEY } from './testing/delivery-stub';

const TIMING = { initialDelayMs: 1000, maxDelayMs: 8000, healthyAfterMs: 10_000 };

/** A stream the test feeds and ends. */
function openStream(): { response: Response; send(text: string): void; end(): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  return {
    response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    send: (text) => controller.enqueue(new TextEncoder().encode(text)),
    end: () => controller.close(),
  };
}

type Answer = () => Promise<Response>;

/** A fetch answering each stream request from the script, each GET with a network error. */
function scriptedFetch(script: Answer[]) {
  const calls: { at: number; url: string; headers: Headers; signal: AbortSignal }[] = [];
  const fetcher: typeof fetch = (input, init) => {
    const url = String(input);
    const signal = init?.signal ?? new AbortController().signal;
    calls.push({ at: Date.now(), url, headers: new Headers(init?.headers), signal });
    if (!url.includes('/stream')) return Promise.reject(new TypeError('fetch failed'));
    const answer = script.shift() ?? (() => Promise.reject(new TypeError('fetch failed')));
    return answer();
  };
  const streams = () => calls.filter((call) => call.url.includes('/stream'));
  return { fetcher, calls, streams };
}

const offline: Answer = () => Promise.reject(new TypeError('fetch failed'));

let client: ProvisioningClient | undefined;
let errors: ClientError[];

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
  errors = [];
});

afterEach(() => {
  client?.close();
  client = undefined;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function start(fetcher: typeof fetch, timing: object = TIMING): ProvisioningClient {
  client = createClient({
    baseUrl: 'http://127.0.0.1:9',
    clientKey: STUB_KEY,
    app: 'web',
    fetch: fetcher,
    onError: (error) => errors.push(error),
    reconnect: timing,
  });
  return client;
}

function gaps(times: number[]): number[] {
  return times.slice(1).map((time, index) => time - (times[index] ?? 0));
}

describe('the reconnect delay', () => {
  it('doubles its ceiling up to the cap, jittered within the upper half', () => {
    const ceilings = [1000, 2000, 4000, 8000, 8000, 8000];
    ceilings.forEach((ceiling, attempt) => {
      expect(reconnectDelay(attempt, 1000, 8000, () => 0)).toBe(ceiling / 2);
      expect(reconnectDelay(attempt, 1000, 8000, () => 0.999999)).toBe(ceiling);
    });
    expect(reconnectDelay(5000, 1000, 8000, () => 0.5)).toBe(6000);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs(new Date(65_000).toUTCString(), 5000)).toBe(60_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('the client reconnecting', () => {
  it('waits longer after each failure, up to the cap, trying a GET each time', async () => {
    const { fetcher, streams, calls } = scriptedFetch([]);
    start(fetcher);
    await vi.advanceTimersByTimeAsync(40_000);
    const times = streams().map((call) => call.at);
    // Random 0.5: three quarters of each ceiling (1, 2, 4, then 8 s, the cap).
    expect(gaps(times).slice(0, 6)).toEqual([750, 1500, 3000, 6000, 6000, 6000]);
    // Each failed stream is followed by one GET of the view (offline too here).
    expect(calls.length).toBe(streams().length * 2);
    expect(errors.every((error) => error.kind === 'network')).toBe(true);
  });

  it('starts over after a healthy stream, not after a short one', async () => {
    const healthy = openStream();
    const short = openStream();
    const { fetcher, streams } = scriptedFetch([
      offline,
      offline,
      () => Promise.resolve(healthy.response),
      offline,
      () => Promise.resolve(short.response),
    ]);
    start(fetcher);
    await vi.advanceTimersByTimeAsync(750 + 1500);
    expect(streams()).toHaveLength(3);
    healthy.send(appEvent(sampleView(1)));
    await vi.advanceTimersByTimeAsync(12_000);
    healthy.end();
    // Healthy for 12 s: the delay starts over at 750 ms; then offline: 1500 ms.
    await vi.advanceTimersByTimeAsync(750 + 1500);
    expect(streams()).toHaveLength(5);
    await vi.advanceTimersByTimeAsync(2000);
    short.end();
    // Open for 2 s only: the delays keep growing (third failure in a row: 3000 ms).
    await vi.advanceTimersByTimeAsync(2999);
    expect(streams()).toHaveLength(5);
    await vi.advanceTimersByTimeAsync(1);
    expect(streams()).toHaveLength(6);
    expect(gaps(streams().map((call) => call.at))).toEqual([750, 1500, 12_000 + 750, 1500, 5000]);
    // The reconnections carried the view's id; the first stream had none to send.
    expect(streams()[0]?.headers.get('last-event-id')).toBeNull();
    expect(streams()[3]?.headers.get('last-event-id')).toBe('cfg_1:1');
    expect(streams()[5]?.headers.get('last-event-id')).toBe('cfg_1:1');
  });

  it("waits as long as Retry-After asks, and takes the server's retry: as its first delay", async () => {
    const stream = openStream();
    const busy: Answer = () =>
      Promise.resolve(new Response('{}', { status: 503, headers: { 'retry-after': '20' } }));
    const { fetcher, streams } = scriptedFetch([busy, () => Promise.resolve(stream.response)]);
    start(fetcher);
    await vi.advanceTimersByTimeAsync(19_999);
    expect(streams()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(streams()).toHaveLength(2);
    stream.send(`retry: 4000\n${appEvent(sampleView(1))}`);
    await vi.advanceTimersByTimeAsync(15_000);
    stream.end();
    // Healthy, so attempt 0 with the server's 4 s: three quarters of it.
    await vi.advanceTimersByTimeAsync(2999);
    expect(streams()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(streams()).toHaveLength(3);
  });

  it('close() leaves no timer and no open request, whatever it interrupts', async () => {
    // While waiting to reconnect.
    const waiting = scriptedFetch([]);
    const first = start(waiting.fetcher, { ...TIMING, idleTimeoutMs: 45_000 });
    const ready = first.ready({ timeoutMs: 60_000 });
    await vi.advanceTimersByTimeAsync(100);
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    first.close();
    await expect(ready).rejects.toMatchObject({ kind: 'closed' });
    expect(vi.getTimerCount()).toBe(0);
    // While a stream is open (its idle timer running).
    const stream = openStream();
    const open = scriptedFetch([() => Promise.resolve(stream.response)]);
    const second = start(open.fetcher);
    stream.send(appEvent(sampleView(1)));
    await second.ready();
    expect(vi.getTimerCount()).toBe(1);
    second.close();
    expect(open.calls.every((call) => call.signal.aborted)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    // While a request is on its way.
    const hanging = scriptedFetch([
      () => new Promise<Response>(() => undefined), // never answers, never aborts
    ]);
    const third = start(hanging.fetcher);
    await vi.advanceTimersByTimeAsync(10);
    third.close();
    expect(hanging.calls[0]?.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(100_000);
    expect(hanging.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(errors).toHaveLength(errors.filter((error) => error.kind === 'network').length);
  });
});
