/**
 * A stand-in for the delivery endpoints on 127.0.0.1, for the client library's own tests:
 * the stream (SSE), the view (GET with ETag) and the events (POST, 202), with faults on
 * demand. Test-only; the
 * client is also tested against the real service (client.integration.test.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryView } from '../provisioning-client';

export interface StubRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
}

export interface DeliveryStub {
  readonly baseUrl: string;
  readonly requests: StubRequest[];
  /** Streams open now. */
  readonly streams: Set<ServerResponse>;
  /** The view both endpoints serve; set with `publish`. */
  view: DeliveryView;
  /** The stream's answer other than 200: `{status, headers}`; undefined: a stream. */
  streamRefusal: { status: number; headers?: Record<string, string> } | undefined;
  /** The view's answer other than 200. */
  viewRefusal: number | undefined;
  /** Each events request: its content type and body as sent. */
  readonly eventBatches: { contentType: string | undefined; body: string }[];
  /** A new view: sent on every open stream. */
  publish(view: DeliveryView): void;
  /** Raw text on every open stream. */
  write(text: string): void;
  /** Ends every open stream (a restart, a proxy's timeout). */
  dropStreams(): void;
  /** Resolves when a request for `path` prefix arrives (counting from now). */
  nextRequest(pathPrefix: string): Promise<StubRequest>;
  close(): Promise<void>;
}

export const STUB_KEY = 'ck_000000000000000000000000';

export function eventIdOf(view: DeliveryView): string {
  return `${view.config.id}:${view.config.revision}`;
}

export function appEvent(view: DeliveryView): string {
  return `event: app\nid: ${eventIdOf(view)}\ndata: ${JSON.stringify(view)}\n\n`;
}

export async function startDeliveryStub(initial: DeliveryView): Promise<DeliveryStub> {
  const waiters: { prefix: string; resolve: (request: StubRequest) => void }[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const seen = { path: url.pathname + url.search, headers: request.headers };
    stub.requests.push(seen);
    for (const waiter of waiters.splice(0)) {
      if (seen.path.startsWith(waiter.prefix)) waiter.resolve(seen);
      else waiters.push(waiter);
    }
    const delivery = `/api/v1/delivery/${STUB_KEY}`;
    if (url.pathname === `${delivery}/stream`) return stream(request, response);
    if (url.pathname === `${delivery}/apps/${stub.view.app.id}`) return view(request, response);
    if (url.pathname === `${delivery}/events` && request.method === 'POST') {
      return events(request, response);
    }
    response.writeHead(404, { 'content-type': 'application/problem+json' }).end('{}');
  });

  function stream(request: IncomingMessage, response: ServerResponse): void {
    if (stub.streamRefusal !== undefined) {
      const { status, headers } = stub.streamRefusal;
      response.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
      response.end('{}');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (request.headers['last-event-id'] !== eventIdOf(stub.view)) {
      response.write(appEvent(stub.view));
    } else {
      response.write(': nothing newer\n\n');
    }
    stub.streams.add(response);
    response.on('close', () => stub.streams.delete(response));
  }

  function view(request: IncomingMessage, response: ServerResponse): void {
    if (stub.viewRefusal !== undefined) {
      response.writeHead(stub.viewRefusal, { 'content-type': 'application/problem+json' });
      response.end('{}');
      return;
    }
    const etag = `"${eventIdOf(stub.view)}"`;
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', etag });
    response.end(JSON.stringify(stub.view));
  }

  function events(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      stub.eventBatches.push({ contentType: request.headers['content-type'], body });
      const { events: sent } = JSON.parse(body) as { events: unknown[] };
      response.writeHead(202, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ accepted: sent.length, duplicates: 0, rejected: [] }));
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const stub: DeliveryStub = {
    baseUrl: `http://127.0.0.1:${port}`,
    requests: [],
    streams: new Set(),
    view: initial,
    streamRefusal: undefined,
    viewRefusal: undefined,
    eventBatches: [],
    publish(next) {
      stub.view = next;
      stub.write(appEvent(next));
    },
    write(text) {
      for (const response of stub.streams) response.write(text);
    },
    dropStreams() {
      for (const response of stub.streams) response.end();
      stub.streams.clear();
    },
    nextRequest(prefix) {
      return new Promise((resolve) => waiters.push({ prefix, resolve }));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return stub;
}

/** A view with one running test of two halves, and one paused test. */
export function sampleView(revision = 1, greeting = 'hello'): DeliveryView {
  return {
    app: {
      id: 'web',
      name: 'Web',
      platform: 'web',
      enabled: true,
      settings: { greeting, limit: 3 },
    },
    ab_tests: [
      {
        id: 'checkout',
        status: 'running',
        variants: [
          { id: 'control', weight: 50, settings: {} },
          { id: 'one_page', weight: 50, settings: { greeting: 'hi', one_page: true } },
        ],
      },
      {
        id: 'paused_test',
        status: 'paused',
        variants: [{ id: 'only', weight: 100, settings: { limit: 9 } }],
      },
    ],
    config: { id: 'cfg_1', revision, published_at: '2026-11-26T08:00:00.000Z' },
  };
}
