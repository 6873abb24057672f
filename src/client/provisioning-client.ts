/**
 * The client library apps read their live config with (docs/client.md): it holds the app's
 * view, kept fresh by the delivery stream, and answers lookups locally with the one
 * assignment module the server uses, so a lookup costs no request; it sends the A/B tests'
 * exposures and the app's metric events in batches (event-queue.ts). No runtime dependencies:
 * fetch, AbortController, TextDecoder, TextEncoder, crypto and timers, in browsers and
 * Node ≥ 20 alike.
 *
 * The public types are declared here, and only here, so that the built `.d.ts` stands alone.
 */
import { assign, variantOf } from '../contract/assignment';
import { MAX_RETRY_AFTER_MS, reconnectDelay, retryAfterMs } from './backoff';
import { createEventQueue } from './event-queue';
import { createSseParser, type SseEvent } from './sse-parser';
import { viewProblem } from './view-check';

export type SettingValue = string | number | boolean;

/** An app's live view: the contract's `DeliveryView` (a test keeps the two equal). */
export interface DeliveryView {
  app: {
    id: string;
    name: string;
    platform: string;
    enabled: boolean;
    settings: Record<string, SettingValue>;
  };
  ab_tests: {
    id: string;
    status: string;
    variants: { id: string; weight: number; settings: Record<string, SettingValue> }[];
  }[];
  config: { id: string; revision: number; published_at: string };
}

export interface ReconnectOptions {
  /** The first delay's ceiling (default 1,000 ms); the server's `retry:` replaces it. */
  initialDelayMs?: number;
  /** The longest delay (default 30,000 ms). */
  maxDelayMs?: number;
  /** A stream open this long counts as healthy: delays start over (default 10,000 ms). */
  healthyAfterMs?: number;
  /** Nothing received for this long (the server beats every 20 s): reconnect (45,000 ms). */
  idleTimeoutMs?: number;
}

export interface ClientOptions {
  /** The service's address, e.g. `https://provisioning.example.com` (`/api/v1` is added). */
  baseUrl: string;
  /** A client key, `ck_…`: not a secret, it only reads delivery. */
  clientKey: string;
  /** The app's id in the config. */
  app: string;
  /** Another fetch (tests, instrumentation); default the global one. */
  fetch?: typeof fetch;
  /** Told of every failure; the client carries on with its last good view. Default: console.warn. */
  onError?: (error: ClientError) => void;
  reconnect?: ReconnectOptions;
  /** Send an exposure when `variant()` first gives a unit a variant (default true). */
  trackExposures?: boolean;
  /** Told of each new exposure, as it is logged, even when `trackExposures` is false. */
  onExposure?: (exposure: Exposure) => void;
}

/** A unit shown a variant of a test: logged once per test, unit and variant. */
export interface Exposure {
  test: string;
  variant: string;
  unit: string;
}

/** The events the client has handled, by fate. */
export interface EventStats {
  /** Waiting to be sent, or on their way. */
  queued: number;
  /** Taken by the service (a duplicate of an event it had counts too). */
  sent: number;
  /** Never sent: the queue was full or the client closed, or the service refused the batch. */
  dropped: number;
  /** Refused one by one by the service (an exposure for a test no longer running...). */
  rejected: number;
}

export type ClientErrorKind =
  /** No answer: offline, refused, reset, or silent past the idle timeout. */
  | 'network'
  /** An answer other than the one asked for (404: unknown or revoked key, unknown app). */
  | 'http'
  /** A view or event that does not have the view's shape: ignored. */
  | 'malformed'
  /** A subscriber or `onExposure` threw. */
  | 'listener'
  /** The service refused some events of a batch (the others were taken). */
  | 'rejected'
  /** `ready({timeoutMs})` passed without a view. */
  | 'timeout'
  /** `close()` came first. */
  | 'closed';

export class ClientError extends Error {
  override readonly name = 'ClientError';
  constructor(
    readonly kind: ClientErrorKind,
    message: string,
    /** The HTTP status, for `http`. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export type ViewListener = (view: DeliveryView) => void;

export interface ProvisioningClient {
  /**
   * The first view, from the stream's first event or, when the stream cannot open, a GET.
   * Rejects on `close()`, or after `timeoutMs` (the client keeps trying).
   */
  ready(options?: { timeoutMs?: number }): Promise<DeliveryView>;
  /** The unit's settings: the app's, with its variant of each running test laid over them. */
  settings(unitId: string): Record<string, SettingValue>;
  /**
   * The unit's variant id in a running test; undefined when not running or unknown. Logs
   * the exposure the first time this client gives the unit this variant.
   */
  variant(testId: string, unitId: string): string | undefined;
  /** A metric event: the unit did `event` (worth `value`, default 1 at the service). */
  track(event: string, unitId: string, value?: number): void;
  /** Sends the events that wait now; resolves once the service answered (or the try failed). */
  flush(): Promise<void>;
  /** How many events wait, were sent, dropped or rejected. */
  eventStats(): EventStats;
  /** The current view; undefined before the first one. */
  view(): DeliveryView | undefined;
  /** Called with each new view; returns the unsubscribe. */
  subscribe(listener: ViewListener): () => void;
  /**
   * Stops everything: the open request, every timer; subscribers hear no more. The events
   * that wait are sent one last time; the promise resolves when that try ends.
   */
  close(): Promise<void>;
}

const API_BASE_PATH = '/api/v1';
const DEFAULT_RECONNECT: Required<ReconnectOptions> = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  healthyAfterMs: 10_000,
  idleTimeoutMs: 45_000,
};
/** Statuses a GET would get too: no fallback for them. */
const ANSWERED_FOR_BOTH = new Set([400, 401, 403, 404, 429]);
/** Exposures remembered as logged; past this many the oldest are forgotten (logged again). */
const MAX_SEEN_EXPOSURES = 10_000;

interface Attempt {
  /** The stream opened (200, an event stream). */
  readonly opened: boolean;
  /** Open long enough to count as healthy. */
  readonly healthy?: boolean;
  /** Statuses that a GET of the view would meet too. */
  readonly skipFallback?: boolean;
  readonly waitAtLeastMs?: number;
}

export function createClient(options: ClientOptions): ProvisioningClient {
  for (const name of ['baseUrl', 'clientKey', 'app'] as const) {
    if (typeof options[name] !== 'string' || options[name] === '') {
      throw new TypeError(`createClient: ${name} must be a non-empty string`);
    }
  }
  const fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const onError = options.onError ?? ((error: ClientError) => console.warn(error));
  const timing = { ...DEFAULT_RECONNECT, ...options.reconnect };
  const base = options.baseUrl.replace(/\/+$/, '');
  const api = base.endsWith(API_BASE_PATH) ? base : base + API_BASE_PATH;
  const delivery = `${api}/delivery/${encodeURIComponent(options.clientKey)}`;
  const streamUrl = `${delivery}/stream?app=${encodeURIComponent(options.app)}`;
  const viewUrl = `${delivery}/apps/${encodeURIComponent(options.app)}`;

  let current: DeliveryView | undefined;
  let currentText: string | undefined;
  let etag: string | undefined;
  let lastEventId: string | undefined;
  let initialDelayMs = timing.initialDelayMs;
  let closed = false;
  let request: AbortController | undefined;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const listeners = new Set<ViewListener>();
  const waiting = new Set<{ resolve: (view: DeliveryView) => void; reject: (e: Error) => void }>();
  let wakeUp: (() => void) | undefined;

  function tell(error: ClientError): void {
    try {
      onError(error);
    } catch {
      // An onError that throws must not stop the client.
    }
  }

  function report(error: ClientError): void {
    if (!closed) tell(error);
  }

  // Events sent by close() are still reported.
  const events = createEventQueue(`${delivery}/events`, fetcher, (kind, message, status) =>
    tell(new ClientError(kind, message, status)),
  );
  const seen = new Set<string>();

  function expose(exposure: Exposure): void {
    const key = JSON.stringify(exposure);
    if (seen.has(key)) return;
    if (seen.size >= MAX_SEEN_EXPOSURES) seen.delete(seen.values().next().value as string);
    seen.add(key);
    if (options.trackExposures !== false) events.add({ kind: 'exposure', ...exposure });
    try {
      options.onExposure?.(exposure);
    } catch (error) {
      report(new ClientError('listener', `onExposure threw: ${String(error)}`));
    }
  }

  function later(ms: number, run: () => void): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
    return timer;
  }

  function cancel(timer: ReturnType<typeof setTimeout> | undefined): void {
    if (timer === undefined) return;
    clearTimeout(timer);
    timers.delete(timer);
  }

  /** Takes a view received from the network if it has the view's shape; true if taken. */
  function accept(data: unknown, source: string): boolean {
    const problem = viewProblem(data);
    const view = data as DeliveryView;
    if (problem !== undefined || view.app.id !== options.app) {
      report(
        new ClientError('malformed', `${source}: ${problem ?? `a view of app ${view.app.id}`}`),
      );
      return false;
    }
    const text = JSON.stringify(view);
    if (text === currentText) return true;
    current = view;
    currentText = text;
    for (const waiter of waiting) waiter.resolve(view);
    waiting.clear();
    for (const listener of [...listeners]) {
      try {
        listener(view);
      } catch (error) {
        report(new ClientError('listener', `a subscriber threw: ${String(error)}`));
      }
    }
    return true;
  }

  function onEvent(event: SseEvent): void {
    if (event.type !== 'app' || closed) return;
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      report(new ClientError('malformed', `stream: an app event whose data is not JSON`));
      return;
    }
    if (accept(data, 'stream') && event.id !== '') lastEventId = event.id;
  }

  function refused(response: Response, what: string): ClientError {
    void response.body?.cancel().catch(() => undefined);
    const message = response.ok ? what : `${what}: HTTP ${response.status}`;
    return new ClientError('http', message, response.status);
  }

  async function openStream(): Promise<Attempt> {
    const controller = (request = new AbortController());
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    let response: Response;
    try {
      response = await fetcher(streamUrl, {
        headers,
        signal: controller.signal,
        cache: 'no-store',
      });
    } catch (error) {
      report(new ClientError('network', `stream: ${String(error)}`));
      return { opened: false };
    }
    if (closed) {
      void response.body?.cancel().catch(() => undefined);
      return { opened: false };
    }
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.startsWith('text/event-stream') || response.body === null) {
      const wait = retryAfterMs(response.headers.get('retry-after'));
      report(refused(response, response.ok ? `stream: not an event stream (${type})` : 'stream'));
      return {
        opened: false,
        skipFallback: ANSWERED_FOR_BOTH.has(response.status),
        ...(wait === undefined ? {} : { waitAtLeastMs: Math.min(wait, MAX_RETRY_AFTER_MS) }),
      };
    }
    const openedAt = Date.now();
    let idle = false;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const heard = (): void => {
      cancel(idleTimer);
      idleTimer = later(timing.idleTimeoutMs, () => {
        idle = true;
        controller.abort();
      });
    };
    const parser = createSseParser({
      event: onEvent,
      retry: (ms) => (initialDelayMs = Math.min(Math.max(ms, 100), timing.maxDelayMs)),
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let refusal: ClientError | undefined;
    try {
      heard();
      for (;;) {
        const { done, value } = await reader.read();
        if (done || closed) break;
        heard();
        try {
          parser.push(decoder.decode(value, { stream: true }));
        } catch (error) {
          refusal = new ClientError('malformed', `stream: ${String(error)}`);
          throw error;
        }
      }
    } catch (error) {
      const why = idle ? `nothing for ${timing.idleTimeoutMs} ms` : String(error);
      report(refusal ?? new ClientError('network', `stream: ${why}`));
      controller.abort();
    } finally {
      cancel(idleTimer);
    }
    return { opened: true, healthy: Date.now() - openedAt >= timing.healthyAfterMs };
  }

  /** The view by GET, revalidated with its ETag: for when the stream cannot open. */
  async function fetchView(): Promise<void> {
    const controller = (request = new AbortController());
    const headers: Record<string, string> = { accept: 'application/json' };
    if (etag !== undefined && current !== undefined) headers['if-none-match'] = etag;
    try {
      const response = await fetcher(viewUrl, {
        headers,
        signal: controller.signal,
        cache: 'no-store',
      });
      if (response.status === 304) return;
      if (!response.ok) return report(refused(response, 'view'));
      const data: unknown = JSON.parse(await response.text());
      if (accept(data, 'view')) etag = response.headers.get('etag') ?? undefined;
    } catch (error) {
      const kind = error instanceof SyntaxError ? 'malformed' : 'network';
      report(new ClientError(kind, `view: ${String(error)}`));
    }
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = later(ms, () => {
        wakeUp = undefined;
        resolve();
      });
      wakeUp = () => {
        cancel(timer);
        resolve();
      };
    });
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!closed) {
      const attempt = await openStream();
      if (closed) break;
      if (!attempt.opened && !attempt.skipFallback) await fetchView();
      if (closed) break;
      if (attempt.healthy) failures = 0;
      const delay = reconnectDelay(failures, initialDelayMs, timing.maxDelayMs);
      failures += 1;
      await sleep(Math.max(delay, attempt.waitAtLeastMs ?? 0));
    }
  }

  run().catch((error: unknown) => {
    // Not expected (every step catches its own failures), but never an unhandled rejection.
    report(new ClientError('network', `the client stopped: ${String(error)}`));
  });

  return {
    ready({ timeoutMs } = {}) {
      if (current !== undefined) return Promise.resolve(current);
      if (closed) return Promise.reject(new ClientError('closed', 'the client is closed'));
      return new Promise((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const waiter = {
          resolve: (view: DeliveryView) => {
            cancel(timer);
            resolve(view);
          },
          reject: (error: Error) => {
            cancel(timer);
            reject(error);
          },
        };
        waiting.add(waiter);
        if (timeoutMs !== undefined) {
          timer = later(timeoutMs, () => {
            waiting.delete(waiter);
            reject(new ClientError('timeout', `no view within ${timeoutMs} ms`));
          });
        }
      });
    },
    settings(unitId) {
      return current === undefined ? {} : assign(current, unitId).settings;
    },
    variant(testId, unitId) {
      const test = current?.ab_tests.find((candidate) => candidate.id === testId);
      const variant = test && variantOf(test, unitId)?.id;
      if (variant !== undefined) expose({ test: testId, variant, unit: unitId });
      return variant;
    },
    track(event, unitId, value) {
      events.add({ kind: 'metric', event, unit: unitId, value });
    },
    flush: () => events.flush(),
    eventStats: events.stats,
    view: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      request?.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      wakeUp?.();
      listeners.clear();
      const error = new ClientError('closed', 'the client is closed');
      for (const waiter of waiting) waiter.reject(error);
      waiting.clear();
      return events.close();
    },
  };
}
