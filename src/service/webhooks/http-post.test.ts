/**
 * One webhook attempt against real receivers on 127.0.0.1; the SSRF rules with made-up host
 * names mapped by an injected resolver, checked to refuse before any socket is opened.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_MAX_ANSWER_BYTES,
  postWebhook,
  WEBHOOK_USER_AGENT,
  type HttpPostSettings,
  type ResolvedAddress,
} from './http-post';

interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly url: string;
}

const servers: Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A receiver on 127.0.0.1 that records each request and answers with `answer`. */
async function receiver(answer: (request: Received, response: ServerResponse) => void) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const each = {
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        url: request.url ?? '',
      };
      received.push(each);
      answer(each, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { received, port, server, url: `http://127.0.0.1:${port}/hooks` };
}

function settings(overrides: Partial<HttpPostSettings> = {}): HttpPostSettings {
  return {
    policy: { allowPrivate: true },
    timeoutMs: 2000,
    maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES,
    userAgent: WEBHOOK_USER_AGENT,
    resolve: () => Promise.reject(new Error('no DNS in these tests')),
    ...overrides,
  };
}

const body = '{"type":"webhook.test","timestamp":"2026-11-26T09:00:00.000Z","data":{}}';
const signature = {
  'webhook-id': 'msg_1',
  'webhook-timestamp': '1800000000',
  'webhook-signature': 'v1,abc=',
};

describe('a webhook attempt', () => {
  it('POSTs the payload exactly, as JSON, signed, naming the service; a 2xx is delivered', async () => {
    const hook = await receiver((_request, response) => response.writeHead(204).end());
    const outcome = await postWebhook(hook.url, body, signature, settings());
    expect(outcome).toEqual({ status: 204, error: null, excerpt: '' });
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    expect(request?.body).toBe(body);
    expect(request?.url).toBe('/hooks');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    expect(request?.headers['webhook-id']).toBe('msg_1');
    expect(request?.headers['webhook-timestamp']).toBe('1800000000');
    expect(request?.headers['webhook-signature']).toBe('v1,abc=');
  });

  it('fails on a non-2xx answer, keeping its status and an excerpt', async () => {
    const hook = await receiver((_request, response) => response.writeHead(500).end('broken'));
    const outcome = await postWebhook(hook.url, body, signature, settings());
    expect(outcome).toEqual({ status: 500, error: 'answered 500', excerpt: 'broken' });
  });

  it('does not follow a redirect: a 3xx is a failure', async () => {
    const elsewhere = await receiver((_request, response) => response.writeHead(200).end());
    const hook = await receiver((_request, response) =>
      response.writeHead(307, { location: elsewhere.url }).end(),
    );
    const outcome = await postWebhook(hook.url, body, signature, settings());
    expect(outcome.status).toBe(307);
    expect(outcome.error).toMatch(/redirects are not followed/);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('gives up after the timeout when the receiver never answers', async () => {
    const hook = await receiver(() => undefined);
    const started = performance.now();
    const outcome = await postWebhook(hook.url, body, signature, settings({ timeoutMs: 300 }));
    const took = performance.now() - started;
    expect(outcome).toEqual({ status: null, error: 'no answer within 300 ms', excerpt: '' });
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(2000);
  });

  it('gives up after the timeout when the answer’s body never ends', async () => {
    const hook = await receiver((_request, response) => {
      response.writeHead(200);
      response.write('partial');
    });
    const outcome = await postWebhook(hook.url, body, signature, settings({ timeoutMs: 300 }));
    expect(outcome.error).toBe('no answer within 300 ms');
  });

  it('reads an oversized answer only up to its limit, then drops the connection', async () => {
    let written = 0;
    let closed = false;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const hook = await receiver((_request, response) => {
      response.writeHead(500);
      response.on('close', () => (closed = true));
      // 64 MiB on offer, written only as fast as the other side reads.
      const pump = () => {
        while (!closed && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    });
    const outcome = await postWebhook(hook.url, body, signature, settings());
    expect(outcome.status).toBe(500);
    expect(outcome.excerpt.length).toBe(DEFAULT_MAX_ANSWER_BYTES);
    await vi.waitFor(() => expect(closed).toBe(true));
    // Socket buffers hold a few MiB at most; the rest was never sent.
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('fails when nothing listens (the receiver is down)', async () => {
    const hook = await receiver(() => undefined);
    await new Promise<void>((resolve) => hook.server.close(() => resolve()));
    const outcome = await postWebhook(hook.url, body, signature, settings());
    expect(outcome).toEqual({ status: null, error: 'could not send: ECONNREFUSED', excerpt: '' });
  });

  it('is abandoned when the sender stops', async () => {
    const hook = await receiver(() => undefined);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const outcome = await postWebhook(hook.url, body, signature, settings(), stop.signal);
    expect(outcome.error).toMatch(/abandoned/);
  });

  it('connects to the address it checked: the host is resolved once, by the given resolver', async () => {
    const hook = await receiver((_request, response) => response.writeHead(200).end('ok'));
    const resolve = vi.fn(() => Promise.resolve([{ address: '127.0.0.1', family: 4 }]));
    // The same spy that shows the refusals below open no socket does see this one.
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const target = `http://receiver.invalid:${hook.port}/hooks`;
    const outcome = await postWebhook(target, body, signature, settings({ resolve }));
    expect(outcome).toEqual({ status: 200, error: null, excerpt: 'ok' });
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith('receiver.invalid');
    expect(hook.received[0]?.headers.host).toBe(`receiver.invalid:${hook.port}`);
    expect(connect).toHaveBeenCalled();
  });
});

describe('addresses the service will not call', () => {
  const strict = { allowPrivate: false };

  async function refusedBeforeConnecting(
    target: string,
    addresses: readonly ResolvedAddress[],
    policy = strict,
  ) {
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const resolve = vi.fn(() => Promise.resolve(addresses));
    const outcome = await postWebhook(target, body, signature, settings({ policy, resolve }));
    expect(connect).not.toHaveBeenCalled();
    expect(outcome.status).toBeNull();
    expect(outcome.error).not.toBeNull();
    return { outcome, resolve };
  }

  it.each([
    ['10.0.0.1', 4],
    ['172.16.5.4', 4],
    ['192.168.1.1', 4],
    ['127.0.0.1', 4],
    ['169.254.169.254', 4],
    ['100.64.0.1', 4],
    ['0.0.0.0', 4],
    ['::1', 6],
    ['::', 6],
    ['fd00::1', 6],
    ['fe80::1', 6],
    ['::ffff:10.0.0.1', 6],
    ['::ffff:169.254.169.254', 6],
  ])('a host resolving to %s', async (address, family) => {
    const { outcome } = await refusedBeforeConnecting('https://hooks.example.com/in', [
      { address, family },
    ]);
    expect(outcome.error).toBe(
      `hooks.example.com resolves to ${address}, which is not a public address`,
    );
  });

  it('a host with any refused address among public ones', async () => {
    const { outcome } = await refusedBeforeConnecting('https://hooks.example.com/in', [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ]);
    expect(outcome.error).toMatch(/10\.0\.0\.1/);
  });

  it('literal private addresses, without resolving', async () => {
    for (const target of [
      'https://10.0.0.1/in',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/in',
      'https://[::ffff:127.0.0.1]/in',
      'https://2130706433/in',
    ]) {
      const { outcome, resolve } = await refusedBeforeConnecting(target, []);
      expect(outcome.error, target).toMatch(/^URL resolves to .*not a public address$/);
      expect(resolve).not.toHaveBeenCalled();
      vi.restoreAllMocks();
    }
  });

  it('localhost, without resolving', async () => {
    const { outcome, resolve } = await refusedBeforeConnecting('https://localhost/in', []);
    expect(outcome.error).toMatch(/not a public address/);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('http: to a public address, even where private targets are allowed', async () => {
    const { outcome } = await refusedBeforeConnecting(
      'http://hooks.example.com/in',
      [{ address: '93.184.216.34', family: 4 }],
      { allowPrivate: true },
    );
    expect(outcome.error).toMatch(/must be https: to a public address/);
  });

  it('http: at all where private targets are not allowed', async () => {
    const { outcome } = await refusedBeforeConnecting('http://hooks.example.com/in', []);
    expect(outcome.error).toMatch(/^URL must be https:/);
  });

  it('a URL with credentials, another scheme, or none at all', async () => {
    for (const [target, reason] of [
      ['https://user:pw@hooks.example.com/in', /user name or password/],
      ['ftp://hooks.example.com/in', /must be https:/],
      ['file:///etc/passwd', /must be https:/],
      ['not a url', /not an absolute URL/],
    ] as const) {
      const { outcome } = await refusedBeforeConnecting(target, []);
      expect(outcome.error, target).toMatch(reason);
      vi.restoreAllMocks();
    }
  });

  it('a host that does not resolve', async () => {
    const { outcome } = await refusedBeforeConnecting('https://nowhere.example.com/in', []);
    expect(outcome.error).toBe('nowhere.example.com does not resolve');
  });
});
