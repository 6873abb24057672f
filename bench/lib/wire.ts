/**
 * What a page really moves over the network, as Chromium counts it: the encoded size of every
 * response (`Network.loadingFinished`'s `encodedDataLength`, headers included), for the page
 * and for every dedicated worker it starts, read through a CDP session of our own that
 * auto-attaches to the workers. It also throttles them all to one emulated link.
 */
import type { Page } from '@playwright/test';
import type { CdpClient } from './cdp';

export interface Link {
  /** Round-trip time added to each request, ms. */
  readonly latencyMs: number;
  /** Bytes per second, each way. */
  readonly bytesPerSecond: number;
}

export interface WireCount {
  readonly bytes: number;
  readonly responses: number;
  /** Each response's URL and its bytes on the wire, in the order they finished. */
  readonly files: readonly { readonly url: string; readonly bytes: number }[];
}

export interface WireMonitor {
  /** Starts counting from zero (e.g. before a reload). */
  reset(): void;
  count(): WireCount;
  /** Stops throttling every session (the page and its workers), e.g. for local timings. */
  unthrottle(): Promise<void>;
}

/** Network conditions for every URL (the by-rule form: workers refuse the older command). */
const conditions = (link: Link | null) => ({
  offline: false,
  matchedNetworkConditions: link
    ? [
        {
          urlPattern: '',
          latency: link.latencyMs,
          downloadThroughput: link.bytesPerSecond,
          uploadThroughput: link.bytesPerSecond,
        },
      ]
    : [],
});

interface CdpResponse {
  readonly url: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly fromDiskCache?: boolean;
  readonly fromPrefetchCache?: boolean;
  readonly fromServiceWorker?: boolean;
}

/**
 * A dedicated worker's own script is fetched by the browser for it, and Chromium reports its
 * body with no encoded bytes (the finished size is the headers alone): a body that came over
 * the network with nothing counted is counted as its `Content-Length` (the encoded size), or
 * as its decoded size when the server sent none. Whether it came over the network: such a
 * response has no wire status, and once revalidated (a 304) it is reported with the headers
 * the cache stored, without the hop-by-hop ones (`Connection`, `Keep-Alive`) that every
 * fresh HTTP/1.1 answer of the service carries.
 */
function uncountedBody(
  response: CdpResponse | undefined,
  status: number | undefined,
  body: { encoded: number; decoded: number } | undefined,
): number {
  if (!response || !body || body.encoded > 0 || body.decoded === 0) return 0;
  if (response.fromDiskCache || response.fromPrefetchCache || response.fromServiceWorker) return 0;
  if (response.status === 304 || status === 304) return 0;
  const header = (wanted: string) =>
    Object.entries(response.headers).find(([name]) => name.toLowerCase() === wanted)?.[1];
  if (header('connection') === undefined && header('keep-alive') === undefined) return 0;
  const length = header('content-length');
  return length === undefined ? body.decoded : Number(length);
}

export async function monitorWire(cdp: CdpClient, page: Page, link: Link): Promise<WireMonitor> {
  const playwrightSession = await page.context().newCDPSession(page);
  const { targetInfo } = await playwrightSession.send('Target.getTargetInfo');
  await playwrightSession.detach();
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId: targetInfo.targetId,
    flatten: true,
  });
  const sessions = new Set<string>([sessionId]);
  let throttled: Link | null = link;
  const urls = new Map<string, string>();
  const responses = new Map<string, CdpResponse>();
  const bodies = new Map<string, { encoded: number; decoded: number }>();
  const wireStatus = new Map<string, number>();
  const finished = new Map<string, number>();
  const servedFromCache = new Set<string>();

  const prepare = (session: string) =>
    Promise.all([
      cdp.send('Network.enable', {}, session),
      cdp.send('Network.emulateNetworkConditionsByRule', conditions(throttled), session),
      cdp.send(
        'Target.setAutoAttach',
        { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
        session,
      ),
    ]);
  cdp.on('Target.attachedToTarget', (params, parent) => {
    if (!sessions.has(parent)) return;
    const child = params.sessionId as string;
    sessions.add(child);
    // The worker waits until it is counted and throttled; one that goes away before it
    // answers is no error of the measurement.
    void prepare(child)
      .catch(() => undefined)
      .then(() => cdp.send('Runtime.runIfWaitingForDebugger', {}, child))
      .catch(() => undefined);
  });
  cdp.on('Network.requestWillBeSent', (params, session) => {
    if (!sessions.has(session)) return;
    urls.set(`${session} ${String(params.requestId)}`, (params.request as { url: string }).url);
  });
  cdp.on('Network.responseReceived', (params, session) => {
    if (!sessions.has(session)) return;
    const key = `${session} ${String(params.requestId)}`;
    const response = params.response as CdpResponse;
    urls.set(key, response.url);
    responses.set(key, response);
  });
  // The status as it came over the wire: a revalidated response is a 200 from the cache in
  // `responseReceived`, a 304 here.
  cdp.on('Network.responseReceivedExtraInfo', (params, session) => {
    if (!sessions.has(session)) return;
    wireStatus.set(`${session} ${String(params.requestId)}`, params.statusCode as number);
  });
  cdp.on('Network.dataReceived', (params, session) => {
    if (!sessions.has(session)) return;
    const key = `${session} ${String(params.requestId)}`;
    const body = bodies.get(key) ?? { encoded: 0, decoded: 0 };
    body.encoded += params.encodedDataLength as number;
    body.decoded += params.dataLength as number;
    bodies.set(key, body);
  });
  cdp.on('Network.requestServedFromCache', (params, session) => {
    if (!sessions.has(session)) return;
    servedFromCache.add(`${session} ${String(params.requestId)}`);
  });
  cdp.on('Network.loadingFinished', (params, session) => {
    if (!sessions.has(session)) return;
    const key = `${session} ${String(params.requestId)}`;
    // A response from the HTTP cache crossed no wire, whatever size Chromium reports for it.
    const response = responses.get(key);
    const fromCache =
      servedFromCache.has(key) ||
      response?.fromDiskCache === true ||
      response?.fromPrefetchCache === true ||
      response?.fromServiceWorker === true;
    finished.set(
      key,
      fromCache
        ? 0
        : (params.encodedDataLength as number) +
            uncountedBody(response, wireStatus.get(key), bodies.get(key)),
    );
  });
  await prepare(sessionId);

  return {
    reset() {
      urls.clear();
      responses.clear();
      bodies.clear();
      wireStatus.clear();
      finished.clear();
      servedFromCache.clear();
    },
    count() {
      // `data:` URLs never touch the network.
      const files = [...finished]
        .map(([key, bytes]) => ({ url: urls.get(key) ?? key, bytes }))
        .filter((file) => !file.url.startsWith('data:'));
      const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
      return { bytes, responses: files.length, files };
    },
    async unthrottle() {
      throttled = null;
      await Promise.all(
        [...sessions].map((session) =>
          cdp
            .send('Network.emulateNetworkConditionsByRule', conditions(null), session)
            .catch(() => undefined),
        ),
      );
    },
  };
}
