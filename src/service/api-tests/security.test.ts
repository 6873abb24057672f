/**
 * Secrets and headers (docs/reliability.md): no API key in clear in the
 * database file or in the logs, the security headers on every response (errors included),
 * and a 500 that reveals nothing.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { contract, MAX_BODY_BYTES, type EndpointName } from '../../contract/endpoints';
import { serviceLoggerOptions } from '../app';
import { hashSecret } from '../domain/api-key-secrets';
import {
  CREATE_APP,
  edit,
  editOk,
  expectConforming,
  expectProblem,
  ok,
  send,
  urlOf,
} from '../testing/api';
import { logCollector } from '../testing/log-collector';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('the database on disk', () => {
  it('holds no API key in clear, only its hash', async () => {
    const running = await startTestService();
    service = running;
    const secrets = [service.adminKey, await service.keyFor('editor')];
    for (let i = 0; i < 3; i++) {
      const created = await ok(service, service.adminKey, 'createApiKey', {
        payload: { name: `Key ${i}`, expires_in_days: 30 },
      });
      secrets.push(created.secret);
      // Use it, so that its row is written again (last_used_at).
      await ok(service, created.secret, 'getAuthStatus');
    }
    await editOk(service, service.adminKey, { operations: [CREATE_APP('a')], summary: 's' });

    const check = async (checkpoint: boolean) => {
      const all = await running.storageBytes({ checkpoint });
      expect(all.length).toBeGreaterThan(0);
      for (const secret of secrets) {
        expect(all.includes(secret)).toBe(false);
        // The random body alone (without prefix or checksum) is not there either.
        expect(all.includes(secret.slice(3, 37))).toBe(false);
        // The grep does see the keys' rows: their hashes are there.
        expect(all.includes(hashSecret(secret))).toBe(true);
      }
    };
    await check(false);
    // Also after the write-ahead log is written back into the database's files.
    await check(true);
  });
});

describe('the logs', () => {
  it('write one line per request and never a key or an Authorization header', async () => {
    const log = logCollector();
    service = await startTestService({
      logger: { ...serviceLoggerOptions('info'), stream: log.stream },
    });
    const admin = service.adminKey;
    const viewer = await service.keyFor('viewer');
    const responses: LightMyRequestResponse[] = [];
    /** Every response must conform to the contract (no endpoint: a problem). */
    const track = async (name: EndpointName | null, response: Promise<LightMyRequestResponse>) => {
      const done = await response;
      if (name) expectConforming(name, done);
      else expectProblem(done, done.statusCode);
      responses.push(done);
      return done;
    };

    await track('getAuthStatus', send(service, admin, 'getAuthStatus'));
    const created = await track(
      'createApiKey',
      send(service, admin, 'createApiKey', { payload: { name: 'Logged?' } }),
    );
    const secret = (created.json() as { secret: string }).secret;
    await track('getAuthStatus', send(service, secret, 'getAuthStatus'));
    await track('listApiKeys', send(service, secret, 'listApiKeys'));
    await track(
      'editConfig',
      edit(service, admin, { operations: [CREATE_APP('a')], summary: 's' }),
    );
    await track(
      'editConfig',
      edit(service, viewer, { operations: [CREATE_APP('a')], summary: 's' }),
    );
    await track('editConfig', edit(service, admin, { operations: [] }));
    const id = (created.json() as { id: string }).id;
    await track('revokeApiKey', send(service, secret, 'revokeApiKey', { params: { id } }));
    await track('getAuthStatus', send(service, secret, 'getAuthStatus'));
    const malformed = `sk_${'x'.repeat(40)}`;
    await track('getAuthStatus', send(service, malformed, 'getAuthStatus'));
    await track(
      'editConfig',
      service.call(admin, {
        method: 'POST',
        url: urlOf('editConfig'),
        payload: '{"operations":',
        headers: { 'content-type': 'application/json' },
      }),
    );
    await track(null, service.call(admin, { method: 'GET', url: '/api/v1/nope' }));
    await track('getHealth', send(service, undefined, 'getHealth'));

    const statuses = responses.map((response) => response.statusCode);
    expect(statuses).toEqual([200, 201, 200, 200, 200, 403, 400, 200, 401, 401, 400, 404, 200]);

    const entries = log.entries();
    expect(entries).toHaveLength(responses.length);
    expect(entries.map((entry) => entry.status)).toEqual(statuses);
    expect(entries.map((entry) => entry.url)).toEqual(
      responses.map((response) => {
        const { pathname, search } = new URL(response.raw.req.url ?? '', 'http://x');
        return `${pathname}${search}`;
      }),
    );
    expect(entries.every((entry) => entry.level === 30 && typeof entry.ms === 'number')).toBe(true);
    // The key's id (not the key) says who made the request.
    expect(entries[0]?.key).toMatch(/^key_/);

    const text = log.lines.join('\n');
    for (const value of [admin, viewer, secret, malformed]) {
      expect(text).not.toContain(value);
      expect(text).not.toContain(value.slice(3, 30));
      expect(text).not.toContain(hashSecret(value));
    }
    expect(text).not.toMatch(/bearer/i);
    expect(text).not.toMatch(/authorization/i);
  });

  it('redacts the secret-bearing fields if anything logs them', async () => {
    const log = logCollector();
    service = await startTestService({
      logger: { ...serviceLoggerOptions('info'), stream: log.stream },
    });
    service.app.get('/api/v1/test-log', async (request) => {
      request.log.info({ req: { headers: request.headers } }, 'request headers');
      request.log.info({ headers: request.headers }, 'headers');
      request.log.info({ created: { secret: 'sk_shh' } }, 'created');
      return { ok: true };
    });
    const response = await service.call(service.adminKey, {
      method: 'GET',
      url: '/api/v1/test-log',
    });
    expect(response.statusCode).toBe(200);
    const text = log.lines.join('\n');
    expect(text).not.toContain(service.adminKey);
    expect(text).not.toContain('sk_shh');
    expect(text).toContain('[redacted]');
  });

  it("names the request in its line, as in the request's other lines", async () => {
    // The request line is written by a logger of its own (plugins/request-log.ts): it must
    // still carry the request's id, so that an operator can join it with what the request
    // logged on the way.
    const log = logCollector();
    service = await startTestService({
      logger: { ...serviceLoggerOptions('info'), stream: log.stream },
    });
    service.app.get('/api/v1/test-log', async (request) => {
      request.log.info('on the way');
      return { ok: true };
    });
    for (let i = 0; i < 2; i++) {
      const response = await service.call(service.adminKey, {
        method: 'GET',
        url: '/api/v1/test-log',
      });
      expect(response.statusCode).toBe(200);
    }
    const entries = log.entries();
    expect(entries.map((entry) => entry.msg)).toEqual([
      'on the way',
      'request',
      'on the way',
      'request',
    ]);
    const ids = entries.map((entry) => entry.reqId);
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[3]).toBe(ids[2]);
    expect(ids[2]).not.toBe(ids[0]);
  });
});

/**
 * Asserts the security headers of docs/operations.md on one API answer: its policy allows nothing
 * (no script of any kind, so none unsafe), refuses framing, and it is neither sniffed, sent
 * as a referrer, read by other origins nor cached. The console's documents get the policy
 * the console runs under (plugins/security-headers.test.ts, e2e/security.spec.ts).
 */
function expectSecurityHeaders(
  response: LightMyRequestResponse,
  what: string,
  endpoint: EndpointName | null = null,
) {
  const csp = String(response.headers['content-security-policy'] ?? '');
  const directives = new Map(
    csp
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values] as const;
      }),
  );
  expect(directives.get('default-src'), `${what}: default-src`).toEqual(["'none'"]);
  expect(directives.has('script-src'), `${what}: script-src`).toBe(false);
  expect(csp, what).not.toContain('unsafe');
  expect(directives.get('frame-ancestors'), `${what}: frame-ancestors`).toEqual(["'none'"]);
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
  expect(response.headers['referrer-policy'], what).toBe('no-referrer');
  expect(response.headers['x-frame-options'], what).toBe('DENY');
  expect(response.headers['cross-origin-resource-policy'], what).toBe('same-origin');
  // The success of a GET that answers 304 to If-None-Match is kept by the browser and
  // revalidated; every other API answer, errors included, is never stored.
  const revalidated =
    endpoint !== null && 304 in contract[endpoint].responses && response.statusCode === 200;
  expect(response.headers['cache-control'], what).toBe(
    revalidated ? 'private, no-cache' : 'no-store',
  );
}

describe('security headers', () => {
  it('are on every response, errors included', async () => {
    service = await startTestService({ rateLimit: { rps: 100, burst: 100 } });
    service.app.get('/api/v1/test-boom', async () => {
      throw new Error('boom');
    });
    const admin = service.adminKey;
    const viewer = await service.keyFor('viewer');
    const draft = await editOk(service, admin, { operations: [CREATE_APP('a')], summary: 's' });

    const cases: [string, EndpointName | null, Promise<LightMyRequestResponse>, number][] = [
      ['health', 'getHealth', send(service, undefined, 'getHealth'), 200],
      ['openapi', 'getOpenApiDocument', send(service, undefined, 'getOpenApiDocument'), 200],
      ['auth status', 'getAuthStatus', send(service, admin, 'getAuthStatus'), 200],
      [
        'create key',
        'createApiKey',
        send(service, admin, 'createApiKey', { payload: { name: 'k' } }),
        201,
      ],
      [
        'discard',
        'deleteConfig',
        send(service, admin, 'deleteConfig', { params: { id: draft.id } }),
        204,
      ],
      ['no key', 'listConfigs', send(service, undefined, 'listConfigs'), 401],
      ['bad key', 'listConfigs', send(service, 'sk_nope', 'listConfigs'), 401],
      [
        'forbidden',
        'editConfig',
        edit(service, viewer, { operations: [CREATE_APP('b')], summary: 's' }),
        403,
      ],
      ['bad request', 'editConfig', edit(service, admin, { operations: [] }), 400],
      ['unknown route', null, service.call(admin, { method: 'GET', url: '/api/v1/nope' }), 404],
      // Refused by Fastify's router before any hook: not valid UTF-8, a parameter too long.
      [
        'undecodable URL',
        null,
        service.call(admin, { method: 'GET', url: '/api/v1/configs/%ED%A0%80' }),
        400,
      ],
      [
        'parameter too long',
        null,
        service.call(admin, { method: 'GET', url: `/api/v1/configs/${'a'.repeat(5_000)}` }),
        400,
      ],
      [
        'unknown config',
        'getConfig',
        send(service, admin, 'getConfig', { params: { id: 'cfg_x' } }),
        404,
      ],
      [
        'conflict',
        'deleteConfig',
        send(service, admin, 'deleteConfig', { params: { id: service.account.live_config_id } }),
        409,
      ],
      [
        'bad JSON',
        'editConfig',
        service.call(admin, {
          method: 'POST',
          url: urlOf('editConfig'),
          payload: '{',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      ],
      [
        'too large',
        'editConfig',
        service.call(admin, {
          method: 'POST',
          url: urlOf('editConfig'),
          payload: 'x'.repeat(MAX_BODY_BYTES + 1),
          headers: { 'content-type': 'application/json' },
        }),
        413,
      ],
      [
        'wrong type',
        'editConfig',
        service.call(admin, {
          method: 'POST',
          url: urlOf('editConfig'),
          payload: 'x',
          headers: { 'content-type': 'text/plain' },
        }),
        415,
      ],
      [
        'internal error',
        null,
        service.call(admin, { method: 'GET', url: '/api/v1/test-boom' }),
        500,
      ],
    ];
    for (const [what, name, pending, status] of cases) {
      const response = await pending;
      expect(response.statusCode, what).toBe(status);
      if (name) expectConforming(name, response);
      else expectProblem(response, status);
      expectSecurityHeaders(response, what, name);
    }
  });

  it('are on a 429', async () => {
    service = await startTestService({ rateLimit: { rps: 1, burst: 1 } });
    await ok(service, service.adminKey, 'getAuthStatus');
    const response = await send(service, service.adminKey, 'getAuthStatus');
    expectProblem(response, 429);
    expectSecurityHeaders(response, '429');
  });
});

describe('a 500', () => {
  it('reveals nothing internal, and the error is logged for the operator', async () => {
    const log = logCollector();
    service = await startTestService({
      logger: { ...serviceLoggerOptions('info'), stream: log.stream },
    });
    // Routes can be added until the app is ready (the first inject).
    service.app.get('/api/v1/test-boom', async () => {
      throw new Error('SQLITE_CORRUPT at /var/lib/provisioning/provisioning.sqlite');
    });
    service.app.get('/api/v1/test-type-error', async () => {
      const value = JSON.parse('null') as { field: { deeper: string } };
      return { value: value.field.deeper };
    });
    service.app.get('/api/v1/test-status-error', async () => {
      throw Object.assign(new Error('upstream 10.0.0.7:5432 refused'), { statusCode: 503 });
    });

    for (const url of [
      '/api/v1/test-boom',
      '/api/v1/test-type-error',
      '/api/v1/test-status-error',
    ]) {
      const response = await service.call(service.adminKey, { method: 'GET', url });
      const problem = expectProblem(response, 500, 'internal_error');
      expect(problem).toEqual({
        type: 'urn:provisioning:problem:internal_error',
        title: 'Internal error',
        status: 500,
        detail: 'Something went wrong on our side; nothing was saved',
        code: 'internal_error',
      });
      expect(response.body).not.toMatch(/SQLITE|sqlite|\/var\/|10\.0\.0\.7|TypeError|null|at /);
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
    // The service still answers.
    await ok(service, service.adminKey, 'getAuthStatus');
    // The operator sees what happened, in the log: the error in full, then the request line.
    const entries = log.entries();
    const requestLines = entries.filter((entry) => entry.msg === 'request');
    expect(requestLines.map((entry) => entry.status)).toEqual([500, 500, 500, 200]);
    const errors = entries.filter((entry) => entry.msg === 'unhandled error');
    expect(errors).toHaveLength(3);
    expect(errors.every((entry) => entry.level === 50)).toBe(true);
    expect(JSON.stringify(errors[0])).toContain('SQLITE_CORRUPT');
    expect(log.lines.join('\n')).not.toContain(service.adminKey);
  });
});
