/**
 * The HTTP server's connections: how long a client may take to send a request and keep an
 * idle connection, which proxies may name the client's address, the answers Node gives
 * before the app sees a request (as problem+json, with the security headers), and the drain
 * when the app closes. docs/operations.md lists the settings.
 */
import type { ConnectionError, FastifyHttpOptions, FastifyInstance } from 'fastify';
import { maxHeaderSize, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problemOf, type Problem } from '../../contract/problem';
import { sendProblem } from './error-handler';
import { API_SECURITY_HEADERS, securityHeadersFor } from './security-headers';

/**
 * No proxy (false), or the proxies' addresses and ranges. Not a hop count: a count trusts
 * whoever connects, and Fastify 5 refuses it.
 */
export type TrustedProxies = false | readonly string[];

export interface HttpSettings {
  /** Until a request's last header has arrived. */
  readonly headersTimeoutMs: number;
  /** From a request's first byte to the last byte of its body. */
  readonly requestTimeoutMs: number;
  /** How long a keep-alive connection may stay idle. */
  readonly keepAliveTimeoutMs: number;
  /** Whose `X-Forwarded-For` gives the client's address (the rate limit's key without an API key). */
  readonly trustProxy: TrustedProxies;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  trustProxy: false,
};

/**
 * How often Node looks for requests past their timeouts: its default, 30 s, would let a
 * 10 s headers timeout run to 40 s.
 */
const TIMEOUT_CHECK_MS = 1_000;

/** Options of the Fastify instance; `buildApp` spreads them into its own. */
export function httpServerOptions(settings: HttpSettings) {
  const shortest = Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs);
  return {
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    requestTimeout: settings.requestTimeoutMs,
    http: {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(10, Math.min(TIMEOUT_CHECK_MS, shortest / 4)),
      // Node's own 400 for a missing Host is plain text; the onRequest hook below answers it.
      requireHostHeader: false,
    },
    trustProxy: settings.trustProxy === false ? false : [...settings.trustProxy],
    clientErrorHandler: answerClientErrors(settings),
    // Fastify's own 503 is plain JSON; the drain below answers with a problem.
    return503OnClosing: false,
  } satisfies FastifyHttpOptions<Server>;
}

function problemForClientError(error: ConnectionError, settings: HttpSettings): Problem {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problemOf(
        'request_timeout',
        `The request did not arrive in time: its headers are due within ${settings.headersTimeoutMs} ms and all of it within ${settings.requestTimeoutMs} ms`,
      );
    case 'HPE_HEADER_OVERFLOW':
      return problemOf(
        'headers_too_large',
        `The request line and headers are over ${maxHeaderSize.toLocaleString('en')} bytes`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return problemOf('payload_too_large', 'The chunk extensions of the body are too large');
    default:
      return problemOf('invalid_request', `The request is not valid HTTP/1.1 (${error.code})`);
  }
}

/** A whole response as bytes for the socket: Node has no response object for these errors. */
function rawProblemResponse(problem: Problem, url: string | undefined): string {
  const body = JSON.stringify(problem);
  const headers = {
    ...(url === undefined ? API_SECURITY_HEADERS : securityHeadersFor(url)),
    // As Fastify writes it for the app's own problems.
    'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    'content-length': String(Buffer.byteLength(body)),
    date: new Date().toUTCString(),
    connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\n${head.join('')}\r\n${body}`;
}

/** Lingers at most this long for the error's answer to leave before the socket is cut. */
const ERROR_ANSWER_LINGER_MS = 1_000;

/**
 * Fastify's `clientErrorHandler`: what Node's parser refuses (a malformed request line, a
 * raw 0xff in the URL, oversized headers) and requests past their timeouts.
 */
function answerClientErrors(settings: HttpSettings) {
  return function answerClientError(
    this: FastifyInstance,
    error: ConnectionError,
    socket: Socket,
  ): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    this.log.debug({ err: error }, 'client error');
    // Node's own answer to a request the app is reading (a request timeout mid-body); if its
    // response has begun, nothing can be added and the socket is only cut.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    const url = inFlight?.req.url;
    socket.setTimeout(ERROR_ANSWER_LINGER_MS, () => socket.destroy());
    socket.end(rawProblemResponse(problemForClientError(error, settings), url), () =>
      socket.destroy(),
    );
  };
}

/**
 * How long idle keep-alive connections are kept once the close has begun: a client that has
 * just had an answer may already be sending its next request, which would be cut unread if
 * its connection were closed at once. Each such request is answered, with `Connection: close`.
 */
const IDLE_GRACE_MS = 1_000;

/**
 * Before anything else reads a request: an HTTP/1.1 request without Host is refused (as Node
 * would, but as a problem), and once the app is closing every new request gets a 503 problem.
 * The close drains: it stops accepting connections, answers what arrives (every answer saying
 * `Connection: close`), closes the connections still idle after a grace, and goes on once
 * every connection has ended (`closeWithin` bounds the wait).
 */
export function registerConnectionRules(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    if (app.server.listening) await drain(app.server);
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      reply.header('connection', 'close');
      sendProblem(
        reply,
        problemOf('shutting_down', 'The service is shutting down; send the request again'),
        { 'retry-after': '1' },
      );
      return;
    }
    const { httpVersionMajor, httpVersionMinor } = request.raw;
    if (request.headers.host === undefined && httpVersionMajor === 1 && httpVersionMinor === 1) {
      reply.header('connection', 'close');
      sendProblem(reply, problemOf('invalid_request', 'An HTTP/1.1 request needs a Host header'));
      return;
    }
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}

async function drain(server: Server): Promise<void> {
  // net.Server's close, not http.Server's: that one would also close the idle connections
  // at once, and stop the timeouts of those still sending a request.
  const ended = new Promise<'ended'>((resolve) =>
    NetServer.prototype.close.call(server, () => resolve('ended')),
  );
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace over'>((resolve) => {
    timer = setTimeout(() => resolve('grace over'), IDLE_GRACE_MS);
  });
  if ((await Promise.race([ended, graceOver])) === 'grace over') server.closeIdleConnections();
  clearTimeout(timer);
  await ended;
}

/**
 * Closes the app: it stops accepting connections, closes the idle ones, and waits for every
 * request it has received to be answered. Connections still open after `deadlineMs` (a
 * client that keeps one open mid-request) are cut, so that a stop always ends.
 */
export async function closeWithin(app: FastifyInstance, deadlineMs: number): Promise<void> {
  const deadline = setTimeout(() => app.server.closeAllConnections(), deadlineMs);
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
  }
}
