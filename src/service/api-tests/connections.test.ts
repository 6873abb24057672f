/**
 * Connections over real sockets (plugins/connections.ts): what Node refuses before the app
 * sees a request answered as problem+json with the security headers, clients too slow to
 * send a request cut off with a 408, idle keep-alive connections closed, and the close of the
 * app answering what it has received. Short timeouts stand in for the defaults here; a test
 * checks that the defaults reach the server.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { problemSchema, type Problem } from '../../contract/problem';
import { buildApp } from '../app';
import { DEFAULT_HTTP_SETTINGS, type HttpSettings } from '../plugins/connections';
import { API_SECURITY_HEADERS, DOCUMENT_SECURITY_HEADERS } from '../plugins/security-headers';
import { urlOf } from '../testing/api';
import {
  openConnection,
  parseResponse,
  type RawConnection,
  type RawResponse,
} from '../testing/raw-http';
import { startTestService, type TestService } from '../testing/test-service';
import { openTestStore } from '../testing/test-store';

let service: TestService | undefined;
let port = 0;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function listen(http: HttpSettings = DEFAULT_HTTP_SETTINGS): Promise<TestService> {
  const started = await startTestService({ http });
  service = started;
  await started.app.listen({ port: 0, host: '127.0.0.1' });
  port = (started.app.server.address() as AddressInfo).port;
  return started;
}

/** Sends `request` on a new connection; the first response, and how the connection ended. */
async function exchange(request: string | Buffer) {
  const connection = await openConnection(port);
  connection.socket.write(request);
  const response = await connection.response();
  await connection.closed;
  return response;
}

function expectProblemResponse(
  response: RawResponse,
  status: number,
  code: string,
  securityHeaders = API_SECURITY_HEADERS,
): Problem {
  expect(response.status, response.body).toBe(status);
  expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  const problem = problemSchema.parse(JSON.parse(response.body));
  expect(problem).toMatchObject({ status, code, type: `urn:provisioning:problem:${code}` });
  for (const [name, value] of Object.entries(securityHeaders))
    expect(response.headers[name], name).toBe(value);
  return problem;
}

const HEALTH = `${urlOf('getHealth')}`;

describe('what Node refuses before the app sees a request', () => {
  it('answers headers over 16 KiB with a 431 problem, and closes the connection', async () => {
    await listen();
    const response = await exchange(
      `GET ${HEALTH} HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectProblemResponse(response, 431, 'headers_too_large');
    expect(response.headers.connection).toBe('close');
  });

  it.each([
    ['a garbage request line', Buffer.from('HELLO WORLD\r\n\r\n')],
    ['an unknown method', Buffer.from(`FETCH ${HEALTH} HTTP/1.1\r\nHost: localhost\r\n\r\n`)],
    [
      'a raw 0xff byte in the URL',
      Buffer.concat([
        Buffer.from(`GET ${HEALTH}`),
        Buffer.from([0xff]),
        Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n'),
      ]),
    ],
    ['a header without a colon', Buffer.from(`GET ${HEALTH} HTTP/1.1\r\nHost localhost\r\n\r\n`)],
    [
      'both Content-Length and chunked',
      Buffer.from(
        `POST ${HEALTH} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      ),
    ],
  ])('answers %s with a 400 problem, and closes the connection', async (_what, request) => {
    await listen();
    const response = await exchange(request);
    expectProblemResponse(response, 400, 'invalid_request');
    expect(response.headers.connection).toBe('close');
  });

  it('answers an HTTP/1.1 request without Host with a 400 problem (HTTP/1.0 needs none)', async () => {
    await listen();
    const response = await exchange(`GET ${HEALTH} HTTP/1.1\r\n\r\n`);
    const problem = expectProblemResponse(response, 400, 'invalid_request');
    expect(problem.detail).toContain('Host');
    expect((await exchange(`GET ${HEALTH} HTTP/1.0\r\n\r\n`)).status).toBe(200);
  });

  it('gives the console documents their own security headers', async () => {
    await listen();
    const response = await exchange(`GET /console/page HTTP/1.1\r\n\r\n`);
    expectProblemResponse(response, 400, 'invalid_request', DOCUMENT_SECURITY_HEADERS);
  });
});

describe('slow and idle clients', () => {
  const SHORT: HttpSettings = {
    ...DEFAULT_HTTP_SETTINGS,
    headersTimeoutMs: 300,
    requestTimeoutMs: 600,
    keepAliveTimeoutMs: 300,
  };

  /** Headers of an edit whose body will be `length` bytes. */
  const editHeaders = (key: string, length: number) =>
    `POST ${urlOf('editConfig')} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  async function expectCutOff(connection: RawConnection) {
    const response = await connection.response();
    const problem = expectProblemResponse(response, 408, 'request_timeout');
    expect(problem.detail).toContain('600 ms');
    expect(response.headers.connection).toBe('close');
    await connection.closed;
  }

  it('cuts off a client that sends the headers and a few bytes of the body, then stalls', async () => {
    const running = await listen(SHORT);
    const connection = await openConnection(port);
    connection.socket.write(`${editHeaders(running.adminKey, 200)}{"operations":[`);
    await expectCutOff(connection);
    expect(await running.rows('SELECT id FROM configs')).toHaveLength(1);
  }, 15_000);

  it('cuts off a client that trickles its body: the timeout is for the whole request', async () => {
    const running = await listen(SHORT);
    const connection = await openConnection(port);
    connection.socket.write(editHeaders(running.adminKey, 10_000));
    // One byte every 50 ms would take over eight minutes.
    const trickle = setInterval(() => connection.socket.write(' '), 50);
    try {
      await expectCutOff(connection);
    } finally {
      clearInterval(trickle);
    }
  }, 15_000);

  it('cuts off a client whose headers do not end, or that sends nothing', async () => {
    await listen(SHORT);
    const partial = await openConnection(port);
    partial.socket.write(`GET ${HEALTH} HTTP/1.1\r\nHost: localhost\r\n`);
    const silent = await openConnection(port);
    for (const connection of [partial, silent]) {
      const response = await connection.response();
      expectProblemResponse(response, 408, 'request_timeout');
      await connection.closed;
    }
  }, 15_000);

  it('closes a keep-alive connection left idle', async () => {
    await listen(SHORT);
    const connection = await openConnection(port);
    connection.socket.write(`GET ${HEALTH} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const response = await connection.response();
    expect(response.status).toBe(200);
    // Nothing more is sent: the server ends the connection, with no error answer.
    await connection.closed;
    expect(
      connection
        .received()
        .toString('latin1')
        .match(/HTTP\/1\.1 /g),
    ).toHaveLength(1);
  }, 15_000);

  it('runs with the default timeouts: headers 10 s, a request 30 s, idle 5 s', async () => {
    const database = await openTestStore();
    const app = await buildApp({ store: database.store });
    try {
      expect(app.server.headersTimeout).toBe(10_000);
      expect(app.server.requestTimeout).toBe(30_000);
      expect(app.server.keepAliveTimeout).toBe(5_000);
    } finally {
      await app.close();
      await database.dispose();
    }
  });
});

describe('closing', () => {
  it('answers a request it received before the close in full, saying Connection: close', async () => {
    const running = await listen();
    const body = JSON.stringify({
      operations: [{ create_app: [{ id: 'late', name: 'Late', platform: 'web' }] }],
      summary: 'late',
    });
    const connection = await openConnection(port);
    connection.socket.write(
      `POST ${urlOf('editConfig')} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${running.adminKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    // Node says 100 Continue as it hands the request to the app: it has been received.
    await connection.until('100 Continue');
    const closing = running.app.close();
    connection.socket.write(body);
    const response = await connection.response();
    expect(response.status, response.body).toBe(200);
    expect(response.headers.connection).toBe('close');
    await connection.closed;
    await closing;
    expect(await running.rows('SELECT id FROM configs')).toHaveLength(2);
  });

  it('answers a request sent on an idle connection as the close begins with a 503 problem', async () => {
    const running = await listen();
    const connection = await openConnection(port);
    const request = `GET ${urlOf('getAuthStatus')} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${running.adminKey}\r\n\r\n`;
    connection.socket.write(request);
    expect((await connection.response()).status).toBe(200);
    const closing = running.app.close();
    // Not closed at once: the request already on its way would be cut unread.
    connection.socket.write(request);
    await connection.until('HTTP/1.1 503');
    const response = parseResponse(
      connection.received().subarray(connection.received().indexOf('HTTP/1.1 503')),
    );
    if (!response) throw new Error('no whole 503');
    expectProblemResponse(response, 503, 'shutting_down');
    expect(response.headers.connection).toBe('close');
    expect(response.headers['retry-after']).toBe('1');
    await connection.closed;
    await closing;
  });
});
