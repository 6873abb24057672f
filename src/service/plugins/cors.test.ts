/**
 * `CORS_ORIGINS`: the API answers the listed origins' preflights and lets them read its
 * answers, refuses every other origin, and the console's page names the same origins in
 * its CSP `connect-src` and in a meta tag. Unset, nothing of it appears.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_ORIGINS_META } from '../../contract/connect-origins';
import { expectProblem, expectSuccess, urlOf } from '../testing/api';
import { BIN } from '../testing/service-process';
import { startTestService, type TestService } from '../testing/test-service';
import { registerCors } from './cors';

const CONSOLE = 'https://console.example.com';
const OTHER = 'http://127.0.0.1:8081';
const STRANGER = 'https://evil.example';

let consoleDir: string;
let service: TestService | undefined;

beforeAll(() => {
  consoleDir = mkdtempSync(join(tmpdir(), 'console-'));
  writeFileSync(
    join(consoleDir, 'index.html'),
    '<!doctype html>\n<html lang="en">\n  <head>\n    <title>Console</title>\n  </head>\n</html>\n',
  );
});

afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(corsOrigins?: readonly string[]): Promise<TestService> {
  service = await startTestService({ consoleDir, ...(corsOrigins ? { corsOrigins } : {}) });
  return service;
}

function preflight(origin: string, url = urlOf('getAuthStatus')): InjectOptions {
  return {
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  };
}

const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
  'access-control-allow-credentials',
];

function corsHeadersOf(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    CORS_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [name, headers[name]]),
  );
}

function connectSrcOf(headers: Record<string, unknown>): string | undefined {
  return String(headers['content-security-policy'])
    .split(';')
    .find((directive) => directive.startsWith('connect-src '));
}

describe('CORS_ORIGINS set', () => {
  it('answers a listed origin’s preflight with what the console sends', async () => {
    const api = await start([CONSOLE, OTHER]);
    for (const url of [urlOf('getAuthStatus'), urlOf('editConfig'), '/api/v1/nope']) {
      const response = await api.call(undefined, preflight(OTHER, url));
      expect(response.statusCode, url).toBe(204);
      expect(response.body).toBe('');
      expect(corsHeadersOf(response.headers), url).toEqual({
        'access-control-allow-origin': OTHER,
        'access-control-allow-methods': 'GET, POST, PUT, DELETE',
        'access-control-allow-headers': 'Authorization, Content-Type, If-Match',
        'access-control-max-age': '600',
      });
      expect(response.headers.vary, url).toContain('Origin');
    }
  });

  it('refuses another origin’s preflight: no header allows it, and never `*`', async () => {
    const api = await start([CONSOLE]);
    for (const origin of [STRANGER, `${CONSOLE}.evil.example`, 'null', CONSOLE.toUpperCase()]) {
      const response = await api.call(undefined, preflight(origin));
      expect(response.statusCode, origin).toBe(204);
      expect(corsHeadersOf(response.headers), origin).toEqual({});
      expect(response.headers.vary, origin).toContain('Origin');
    }
  });

  it('lets a listed origin read answers, errors and their ETag, Link, WWW-Authenticate, Retry-After', async () => {
    const api = await start([CONSOLE]);
    const headers = { origin: CONSOLE };
    const status = await api.call(api.adminKey, {
      method: 'GET',
      url: urlOf('getAuthStatus'),
      headers,
    });
    expectSuccess('getAuthStatus', status);
    const readable = {
      'access-control-allow-origin': CONSOLE,
      'access-control-expose-headers': 'ETag, Link, Retry-After, WWW-Authenticate',
    };
    expect(corsHeadersOf(status.headers)).toEqual(readable);
    expect(status.headers.vary).toContain('Origin');

    const config = await api.call(api.adminKey, {
      method: 'GET',
      url: urlOf('getLiveConfig'),
      headers: { ...headers, 'accept-encoding': 'br' },
    });
    expect(config.statusCode).toBe(200);
    expect(config.headers.etag).toBeTruthy();
    expect(corsHeadersOf(config.headers)).toEqual(readable);

    const unauthenticated = await api.call(undefined, {
      method: 'GET',
      url: urlOf('getAuthStatus'),
      headers,
    });
    expectProblem(unauthenticated, 401);
    expect(unauthenticated.headers['www-authenticate']).toBeTruthy();
    expect(corsHeadersOf(unauthenticated.headers)).toEqual(readable);
    expect(
      corsHeadersOf(
        (await api.call(undefined, { method: 'GET', url: '/api/v1/nope', headers })).headers,
      ),
    ).toEqual(readable);
  });

  it('gives another origin’s request no header that lets it read the answer', async () => {
    const api = await start([CONSOLE]);
    const response = await api.call(api.adminKey, {
      method: 'GET',
      url: urlOf('getAuthStatus'),
      headers: { origin: STRANGER },
    });
    expect(response.statusCode).toBe(200);
    expect(corsHeadersOf(response.headers)).toEqual({});
    expect(response.headers.vary).toContain('Origin');
  });

  it('puts the origins in the page’s CSP connect-src and in a meta tag for the console', async () => {
    const api = await start([CONSOLE, OTHER]);
    for (const url of ['/', '/index.html', '/configs/abc']) {
      const page = await api.call(undefined, {
        method: 'GET',
        url,
        headers: { accept: 'text/html' },
      });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toContain('text/html');
      expect(connectSrcOf(page.headers), url).toBe(`connect-src 'self' ${CONSOLE} ${OTHER}`);
      expect(page.body, url).toContain(
        `<head>\n    <meta name="${CONNECT_ORIGINS_META}" content="${CONSOLE} ${OTHER}" />`,
      );
      expect(page.body, url).toContain('<title>Console</title>');
      // Pages stay revalidated, as without the setting.
      expect(page.headers['cache-control'], url).toBe('no-cache');
      const again = await api.call(undefined, {
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'if-none-match': String(page.headers.etag) },
      });
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe('');
      // Documents are not the API: no CORS on them.
      expect(corsHeadersOf(page.headers), url).toEqual({});
    }
  });
});

describe('CORS_ORIGINS unset', () => {
  it('answers no preflight, allows no origin, and keeps connect-src to this origin', async () => {
    const api = await start();
    const refused = await api.call(undefined, preflight(CONSOLE));
    expectProblem(refused, 404, 'not_found');
    expect(corsHeadersOf(refused.headers)).toEqual({});
    const status = await api.call(api.adminKey, {
      method: 'GET',
      url: urlOf('getAuthStatus'),
      headers: { origin: CONSOLE },
    });
    expect(corsHeadersOf(status.headers)).toEqual({});
    expect(status.headers.vary).toBeUndefined();

    const page = await api.call(undefined, {
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html' },
    });
    expect(connectSrcOf(page.headers)).toBe("connect-src 'self'");
    expect(page.body).not.toContain(CONNECT_ORIGINS_META);
  });
});

describe('a rule for any origin', () => {
  it('says `*`, does not vary on Origin, and never allows credentials', async () => {
    const app = Fastify();
    registerCors(app, {
      rules: [
        {
          pathPrefix: '/open/',
          policy: {
            origins: 'any',
            methods: ['GET'],
            allowedHeaders: ['Authorization'],
            exposedHeaders: ['ETag'],
            maxAgeSeconds: 60,
          },
        },
      ],
    });
    app.get('/open/thing', async () => ({ ok: true }));
    app.get('/closed', async () => ({ ok: true }));
    const open = await app.inject({
      method: 'GET',
      url: '/open/thing',
      headers: { origin: STRANGER },
    });
    expect(corsHeadersOf(open.headers)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'ETag',
    });
    expect(open.headers.vary).toBeUndefined();
    const closed = await app.inject({
      method: 'GET',
      url: '/closed',
      headers: { origin: STRANGER },
    });
    expect(corsHeadersOf(closed.headers)).toEqual({});
    await app.close();
  });
});

describe('a malformed CORS_ORIGINS', () => {
  it('stops the server at start-up with one line naming the entry', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-cors-'));
    try {
      const result = spawnSync(
        process.execPath,
        [BIN, 'serve', '--port', '0', '--data-dir', dataDir],
        {
          env: { ...process.env, CORS_ORIGINS: `${CONSOLE}, https://console.example.com/` },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(result.status).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(
        'CORS_ORIGINS must be a comma-separated list of origins such as https://console.example.com',
      );
      expect(result.stderr).toContain(
        '"https://console.example.com/" is not one (its origin is https://console.example.com)',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
