/**
 * Exposures and metric events on their way to the service (docs/client.md, Experiments):
 * queued, sent in batches, retried with backoff while the service is away. Every event
 * carries its own id, so a batch sent twice (a retry, the page closing) counts once.
 */
import type { ExperimentEvent, EventBatchAnswer } from '../contract/experiments';
import { MAX_RETRY_AFTER_MS, reconnectDelay, retryAfterMs } from './backoff';

/** A batch leaves when this many events wait, or FLUSH_AFTER_MS after the first one. */
export const BATCH_EVENTS = 50;
export const FLUSH_AFTER_MS = 2000;
/** Events waiting beyond this are dropped (and counted): the newest go, exposures stay. */
export const MAX_QUEUED_EVENTS = 1000;
/** The service's limits for one batch. */
export const MAX_BATCH_EVENTS = 500;
export const MAX_BATCH_BYTES = 256 * 1024;
/** What a browser lets all keepalive requests of a page carry together. */
export const KEEPALIVE_BYTES = 64 * 1024;
/** A request unanswered this long is given up (and retried): flush() and close() end. */
export const REQUEST_TIMEOUT_MS = 30_000;
const RETRY_INITIAL_MS = 1000;
const RETRY_MAX_MS = 60_000;

type NewEvent =
  | Omit<Extract<ExperimentEvent, { kind: 'exposure' }>, 'at' | 'id'>
  | Omit<Extract<ExperimentEvent, { kind: 'metric' }>, 'at' | 'id'>;

export interface EventQueue {
  add(event: NewEvent): void;
  /** Sends what waits now; `keepalive` for a page going away (one request of 64 KiB). */
  flush(keepalive?: boolean): Promise<void>;
  stats(): { queued: number; sent: number; dropped: number; rejected: number };
  /** Sends what waits once more, then nothing. */
  close(): Promise<void>;
}

export type EventFailure = (
  kind: 'network' | 'http' | 'rejected',
  message: string,
  status?: number,
) => void;

/** Where there is a page: a browser's window (pagehide) and document (visibilitychange). */
const page = globalThis as Partial<
  Pick<Window, 'addEventListener' | 'removeEventListener' | 'document'>
>;

/** A random id: randomUUID needs a secure context (https); getRandomValues does not. */
function eventId(): string {
  return crypto.randomUUID
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
        byte.toString(16).padStart(2, '0'),
      ).join('');
}

export function createEventQueue(
  url: string,
  fetcher: typeof fetch,
  fail: EventFailure,
): EventQueue {
  // Each event as the JSON it is sent as, in arrival order; those in a request map to
  // whether that request is a keepalive one.
  const queue = new Set<string>();
  const flying = new Map<string, boolean>();
  const posts = new Set<Promise<unknown>>();
  const counts = { sent: 0, dropped: 0, rejected: 0 };
  const encoder = new TextEncoder();
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  function later(ms: number, run: () => void): ReturnType<typeof setTimeout> {
    const handle = setTimeout(run, ms);
    // A Node process must not stay up for the events' sake.
    (handle as { unref?: () => void }).unref?.();
    return handle;
  }

  function wait(ms: number): void {
    timer ??= later(ms, () => {
      timer = undefined;
      void flush();
    });
  }

  function stopWaiting(): void {
    clearTimeout(timer);
    timer = undefined;
  }

  function schedule(): void {
    const waiting = queue.size - flying.size;
    if (closed || waiting <= 0) return;
    // One request at a time, unless the page goes away: a burst leaves in a few batches.
    if (waiting >= BATCH_EVENTS && failures === 0 && posts.size === 0) void flush();
    else wait(FLUSH_AFTER_MS);
  }

  /** Takes the batch's events off the queue, counting each as `outcome` says. */
  function settle(batch: string[], outcome: (index: number) => keyof typeof counts): number {
    let settled = 0;
    batch.forEach((json, index) => {
      if (queue.delete(json)) {
        counts[outcome(index)] += 1;
        settled += 1;
      }
    });
    return settled;
  }

  /** Sends one batch; the wait before trying again, or undefined when it is settled. */
  async function post(batch: string[], keepalive: boolean): Promise<number | undefined> {
    for (const json of batch) flying.set(json, keepalive);
    let retryAfter: number | undefined;
    const abort = new AbortController();
    const timeout = later(REQUEST_TIMEOUT_MS, () => abort.abort());
    try {
      const response = await fetcher(url, {
        method: 'POST',
        // text/plain keeps a cross-origin request "simple": no preflight first.
        headers: { 'content-type': 'text/plain' },
        body: `{"events":[${batch.join(',')}]}`,
        keepalive,
        signal: abort.signal,
      });
      const { status } = response;
      if (response.ok) {
        let rejected: EventBatchAnswer['rejected'] = [];
        try {
          rejected = (JSON.parse(await response.text()) as EventBatchAnswer).rejected ?? [];
        } catch {
          // Taken (2xx); an answer we cannot read says nothing to retry.
        }
        failures = 0;
        const codes = new Map(rejected.map((entry) => [entry.index, entry.code]));
        settle(batch, (index) => (codes.has(index) ? 'rejected' : 'sent'));
        if (codes.size > 0) {
          fail(
            'rejected',
            `events: ${codes.size} of ${batch.length} rejected (${[...new Set(codes.values())].join(', ')})`,
          );
        }
      } else {
        void response.body?.cancel().catch(() => undefined);
        if (status === 429 || status >= 500) {
          retryAfter = retryAfterMs(response.headers.get('retry-after')) ?? 0;
          fail('http', `events: HTTP ${status}`, status);
        } else {
          // 400, 404, 413: the same batch would meet the same answer.
          const dropped = settle(batch, () => 'dropped');
          fail('http', `events: HTTP ${status}, ${dropped} dropped`, status);
        }
      }
    } catch (error) {
      retryAfter = 0;
      fail('network', `events: ${String(error)}`);
    } finally {
      clearTimeout(timeout);
      for (const json of batch) flying.delete(json);
    }
    return retryAfter;
  }

  function retry(retryAfter: number): void {
    stopWaiting();
    wait(
      Math.max(
        reconnectDelay(failures, RETRY_INITIAL_MS, RETRY_MAX_MS),
        Math.min(retryAfter, MAX_RETRY_AFTER_MS),
      ),
    );
    failures += 1;
  }

  function flush(keepalive = false): Promise<void> {
    stopWaiting();
    const started = [...posts];
    const send = (batch: string[]): void => {
      const sending = post(batch, keepalive).then((retryAfter) => {
        posts.delete(sending);
        if (closed) return;
        if (retryAfter === undefined) schedule();
        else retry(retryAfter);
      });
      posts.add(sending);
      started.push(sending);
    };
    let batch: string[] = [];
    let bytes = 13; // {"events":[]}
    for (const json of queue) {
      // A keepalive flush sends again what is in a plain request: the page may end it.
      if (flying.has(json) && (!keepalive || flying.get(json))) continue;
      const size = encoder.encode(json).length + 1;
      if (
        batch.length > 0 &&
        (batch.length === MAX_BATCH_EVENTS ||
          bytes + size > (keepalive ? KEEPALIVE_BYTES : MAX_BATCH_BYTES))
      ) {
        if (keepalive) break;
        send(batch);
        batch = [];
        bytes = 13;
      }
      batch.push(json);
      bytes += size;
    }
    if (batch.length > 0) send(batch);
    return Promise.all(started).then(() => undefined);
  }

  const onPageHide = (): void => void flush(true);
  const onVisibility = (): void => {
    if (page.document?.visibilityState === 'hidden') onPageHide();
  };
  page.addEventListener?.('pagehide', onPageHide);
  page.document?.addEventListener('visibilitychange', onVisibility);

  return {
    add(event) {
      if (closed || queue.size >= MAX_QUEUED_EVENTS) {
        counts.dropped += 1;
        return;
      }
      queue.add(JSON.stringify({ ...event, at: new Date().toISOString(), id: eventId() }));
      schedule();
    },
    flush,
    stats: () => ({ queued: queue.size, ...counts }),
    close() {
      page.removeEventListener?.('pagehide', onPageHide);
      page.document?.removeEventListener('visibilitychange', onVisibility);
      const last = flush();
      closed = true;
      return last;
    },
  };
}
