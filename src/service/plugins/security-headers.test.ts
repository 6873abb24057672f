/**
 * Which headers each response gets: the console's documents exactly what @fastify/helmet
 * sent with the same options (it was the service's plugin before; it stays a dev
 * dependency as the reference), API answers the API set, whatever their status.
 */
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConsole } from './console-static';
import { frameworkErrorHandler, registerErrorHandler } from './error-handler';
import {
  API_SECURITY_HEADERS,
  CONTENT_SECURITY_POLICY,
  DELIVERY_SECURITY_HEADERS,
  DOCUMENT_SECURITY_HEADERS,
  documentSecurityHeaders,
  registerSecurityHeaders,
  STRICT_TRANSPORT_SECURITY,
} from './security-headers';

let consoleDir: string;

beforeAll(() => {
  consoleDir = mkdtempSync(join(tmpdir(), 'console-'));
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Console</title>');
  mkdirSync(join(consoleDir, 'assets'));
  writeFileSync(join(consoleDir, 'assets', 'entry.js'), 'export {};');
});

afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

/** The service's plugins in its order, a route under /api/ and one that fails. */
async function serviceLike(): Promise<FastifyInstance> {
  const app = Fastify({ frameworkErrors: frameworkErrorHandler });
  registerErrorHandler(app);
  registerSecurityHeaders(app);
  app.get('/api/v1/configs/:id', async () => ({ ok: true }));
  app.get('/api/v1/thing', async () => ({ ok: true }));
  app.get('/api/v1/delivery/:key/apps/:app', async () => ({ ok: true }));
  app.get('/api/v1/broken', async () => {
    throw new Error('boom');
  });
  await registerConsole(app, consoleDir);
  return app;
}

async function headersOf(app: FastifyInstance, url: string, accept = '*/*') {
  const response = await app.inject({ method: 'GET', url, headers: { accept } });
  const { date: _date, ...headers } = response.headers;
  return { status: response.statusCode, headers };
}

function securityPart(headers: Record<string, unknown>, set: Readonly<Record<string, string>>) {
  return Object.fromEntries(Object.keys(set).map((name) => [name, headers[name]]));
}

/** Helmet's headers that only documents get. */
const DOCUMENT_ONLY = Object.keys(DOCUMENT_SECURITY_HEADERS).filter(
  (name) => !(name in API_SECURITY_HEADERS),
);

describe('security headers', () => {
  it('on a document are the ones helmet sends with the same options', async () => {
    const ours = await serviceLike();
    const helmets = Fastify();
    await helmets.register(helmet, {
      global: true,
      contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
      referrerPolicy: { policy: 'no-referrer' },
      frameguard: { action: 'deny' },
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
    });
    helmets.get('/', async () => 'page');
    const helmetHeaders = securityPart(
      (await headersOf(helmets, '/')).headers,
      DOCUMENT_SECURITY_HEADERS,
    );
    expect(Object.keys(helmetHeaders)).toHaveLength(11);
    expect(helmetHeaders).toEqual(DOCUMENT_SECURITY_HEADERS);

    for (const [url, accept] of [
      ['/', 'text/html'],
      ['/configs/cfg_1', 'text/html'],
      ['/assets/entry.js', '*/*'],
    ] as const) {
      const { status, headers } = await headersOf(ours, url, accept);
      expect(status, url).toBe(200);
      expect(securityPart(headers, DOCUMENT_SECURITY_HEADERS), url).toEqual(helmetHeaders);
    }
    await Promise.all([ours.close(), helmets.close()]);
  });

  it('on an API answer are the API set, on success, error and unknown route alike', async () => {
    const app = await serviceLike();
    for (const [url, expected] of [
      ['/api/v1/thing', 200],
      ['/api/v1/thing?x=1', 200],
      ['/api/v1/broken', 500],
      ['/api/v1/nope', 404],
      ['/api/v1/configs/%ED%A0%80', 400],
    ] as const) {
      const { status, headers } = await headersOf(app, url, 'text/html');
      expect(status, url).toBe(expected);
      expect(securityPart(headers, API_SECURITY_HEADERS), url).toEqual(API_SECURITY_HEADERS);
      expect(
        securityPart(headers, Object.fromEntries(DOCUMENT_ONLY.map((name) => [name, '']))),
      ).toEqual(Object.fromEntries(DOCUMENT_ONLY.map((name) => [name, undefined])));
    }
    await app.close();
  });

  it('add HSTS behind TLS (a trusted proxy saying https), never over plain HTTP', async () => {
    const app = Fastify({ trustProxy: '127.0.0.1' });
    registerSecurityHeaders(app);
    app.get('/api/v1/thing', async () => ({ ok: true }));
    const over = (proto?: string) =>
      app.inject({
        method: 'GET',
        url: '/api/v1/thing',
        headers: proto ? { 'x-forwarded-proto': proto } : {},
      });
    expect((await over('https')).headers['strict-transport-security']).toBe(
      STRICT_TRANSPORT_SECURITY,
    );
    expect((await over('http')).headers['strict-transport-security']).toBeUndefined();
    expect((await over()).headers['strict-transport-security']).toBeUndefined();
    await app.close();
  });

  it('on a delivery answer are nosniff and no-store alone, on success and error alike', async () => {
    const app = await serviceLike();
    expect(DELIVERY_SECURITY_HEADERS).toEqual({
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    const others = Object.keys({ ...API_SECURITY_HEADERS, ...DOCUMENT_SECURITY_HEADERS }).filter(
      (name) => !(name in DELIVERY_SECURITY_HEADERS),
    );
    for (const [url, expected] of [
      ['/api/v1/delivery/ck_x/apps/a', 200],
      ['/api/v1/delivery/ck_x/apps/a?x=1', 200],
      ['/api/v1/delivery/ck_x/nope', 404],
    ] as const) {
      const { status, headers } = await headersOf(app, url);
      expect(status, url).toBe(expected);
      expect(securityPart(headers, DELIVERY_SECURITY_HEADERS), url).toEqual(
        DELIVERY_SECURITY_HEADERS,
      );
      expect(
        others.filter((name) => headers[name] !== undefined),
        url,
      ).toEqual([]);
    }
    await app.close();
  });

  it('for an API answer are fewer and smaller than a document’s, and keep what docs/operations.md promises', () => {
    const bytes = (set: Readonly<Record<string, string>>) =>
      Object.entries(set).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
    expect(bytes(API_SECURITY_HEADERS)).toBeLessThan(bytes(DOCUMENT_SECURITY_HEADERS) / 2);
    expect(API_SECURITY_HEADERS['x-content-type-options']).toBe('nosniff');
    expect(API_SECURITY_HEADERS['referrer-policy']).toBe('no-referrer');
    expect(API_SECURITY_HEADERS['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('on a document name the other origins the console may call in connect-src, and only there', () => {
    const widened = documentSecurityHeaders(['https://a.example', 'http://127.0.0.1:8081']);
    const directives = (headers: Readonly<Record<string, string>>) =>
      String(headers['content-security-policy']).split(';');
    const [before, after] = [directives(DOCUMENT_SECURITY_HEADERS), directives(widened)];
    expect(after.filter((directive) => !before.includes(directive))).toEqual([
      "connect-src 'self' https://a.example http://127.0.0.1:8081",
    ]);
    expect(before.filter((directive) => !after.includes(directive))).toEqual([
      "connect-src 'self'",
    ]);
    const { 'content-security-policy': _policy, ...rest } = widened;
    const { 'content-security-policy': _default, ...defaultRest } = DOCUMENT_SECURITY_HEADERS;
    expect(rest).toEqual(defaultRest);
  });
});
