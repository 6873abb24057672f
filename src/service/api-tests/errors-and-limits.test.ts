/**
 * Errors and limits (docs/api.md): bodies that are not JSON objects, content types, the
 * 1 MiB body limit, 1,000 operations and 10,000 items a request, unknown routes, and the rate
 * limit per key and per address (behind a trusted proxy too). Every limit is tested at and
 * just past its edge.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ITEMS, MAX_OPERATIONS } from '../../contract/config-edit';
import { MAX_BODY_BYTES } from '../../contract/endpoints';
import {
  CREATE_APP,
  dataOf,
  edit,
  editOk,
  expectConforming,
  expectProblem,
  expectSuccess,
  ok,
  send,
  urlOf,
} from '../testing/api';
import { DEFAULT_HTTP_SETTINGS } from '../plugins/connections';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;
let admin: string;

afterEach(async () => {
  await service.close();
});

/** POST /config/edit with a raw body and content type. */
function rawEdit(payload: string | Buffer, contentType?: string) {
  return service.call(admin, {
    method: 'POST',
    url: urlOf('editConfig'),
    payload,
    headers: contentType ? { 'content-type': contentType } : {},
  });
}

async function configCount() {
  return (await ok(service, admin, 'listConfigs')).length;
}

describe('bodies', () => {
  beforeEach(async () => {
    service = await startTestService();
    admin = service.adminKey;
  });

  it.each([
    ['not JSON', '{"operations": ['],
    ['JSON that is an array', '[{"create_app":[{"id":"a"}]}]'],
    ['a JSON string', '"create_app"'],
    ['JSON null', 'null'],
    ['a number', '42'],
    ['empty', ''],
  ])('refuses a body that is %s with 400', async (_what, payload) => {
    const problem = expectProblem(
      await rawEdit(payload, 'application/json'),
      400,
      'invalid_request',
    );
    expect(problem.detail).not.toMatch(/at .*\.js|node_modules/);
    expect(await configCount()).toBe(1);
  });

  it('names the body as the wrong part when it is not an object', async () => {
    const problem = expectProblem(await rawEdit('[]', 'application/json'), 400);
    expect(problem.errors).toEqual([{ path: '', message: expect.any(String) }]);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'refuses Content-Type %s with 415',
    async (contentType) => {
      const body = JSON.stringify({ operations: [CREATE_APP('a')], summary: 's' });
      expectProblem(await rawEdit(body, contentType), 415, 'unsupported_media_type');
      expect(await configCount()).toBe(1);
    },
  );

  it('refuses a non-JSON content type on the other endpoints with a body', async () => {
    const response = await service.call(admin, {
      method: 'POST',
      url: urlOf('createApiKey'),
      payload: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(response, 415, 'unsupported_media_type');
  });

  it('accepts application/json with a charset', async () => {
    const body = JSON.stringify({ operations: [CREATE_APP('a')], summary: 's' });
    const response = await rawEdit(body, 'application/json; charset=utf-8');
    expect(expectSuccess('editConfig', response).revision).toBe(1);
  });

  /** JSON text with `bytes` spliced into a string of it. */
  const withBytes = (before: string, bytes: number[], after: string) =>
    Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);

  it.each([
    ['a raw 0xff byte', [0xff]],
    ['a truncated sequence', [0xc3]],
    ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
    ['an overlong encoding', [0xc0, 0xaf]],
  ])('refuses a body with %s in a string with 400, saving nothing', async (_what, bytes) => {
    const app = '{"id":"a","name":"A","platform":"web"}';
    const payload = withBytes(
      '{"summary":"caf',
      bytes,
      `","operations":[{"create_app":[${app}]}]}`,
    );
    const problem = expectProblem(
      await rawEdit(payload, 'application/json'),
      400,
      'invalid_request',
    );
    expect(problem.detail).toBe('The body is not valid UTF-8');
    expect(await configCount()).toBe(1);

    const keyName = withBytes('{"name":"ke', bytes, 'y"}');
    const before = (await ok(service, admin, 'listApiKeys')).length;
    expectProblem(
      await service.call(admin, {
        method: 'POST',
        url: urlOf('createApiKey'),
        payload: keyName,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_request',
    );
    expect(await ok(service, admin, 'listApiKeys')).toHaveLength(before);
  });

  it('stores text in UTF-8 as it was sent, beyond ASCII included', async () => {
    const name = 'café ☕ 🚀 日本';
    const response = await service.call(admin, {
      method: 'POST',
      url: urlOf('createApiKey'),
      payload: Buffer.from(JSON.stringify({ name }), 'utf8'),
      headers: { 'content-type': 'application/json' },
    });
    expect(expectSuccess('createApiKey', response).name).toBe(name);
    const names = (await ok(service, admin, 'listApiKeys')).map((key) => key.name);
    expect(names).toContain(name);
  });
});

/** A create_app request of exactly `bytes` bytes, padded in an unknown key of the app. */
function editBodyOfSize(bytes: number): string {
  const shell = (pad: string) =>
    JSON.stringify({
      operations: [{ create_app: [{ id: 'big', name: 'Big', platform: 'web', note: pad }] }],
      summary: 'Padded',
    });
  const overhead = Buffer.byteLength(shell(''));
  const body = shell('x'.repeat(bytes - overhead));
  expect(Buffer.byteLength(body)).toBe(bytes);
  return body;
}

describe('the 1 MiB body limit', () => {
  beforeEach(async () => {
    service = await startTestService();
    admin = service.adminKey;
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const response = await rawEdit(editBodyOfSize(MAX_BODY_BYTES), 'application/json');
    const result = expectSuccess('editConfig', response);
    expect(dataOf(result.validation.yaml ?? '').apps?.[0]?.note).toHaveLength(
      MAX_BODY_BYTES - Buffer.byteLength(editBodyOfSize(MAX_BODY_BYTES).replace(/x+/, '')),
    );
    expect(await configCount()).toBe(2);
  });

  it('refuses a body one byte over with 413, saving nothing', async () => {
    const problem = expectProblem(
      await rawEdit(editBodyOfSize(MAX_BODY_BYTES + 1), 'application/json'),
      413,
      'payload_too_large',
    );
    expect(problem.title).toBe('The body is too large');
    expect(await configCount()).toBe(1);
  });

  it('refuses an oversized body on other endpoints too', async () => {
    const response = await service.call(admin, {
      method: 'POST',
      url: urlOf('createApiKey'),
      payload: JSON.stringify({ name: 'k', pad: 'x'.repeat(MAX_BODY_BYTES) }),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 413, 'payload_too_large');
  });
});

describe('operations and items a request', () => {
  beforeEach(async () => {
    service = await startTestService();
    admin = service.adminKey;
  });

  const appOps = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ create_app: [{ id: `app-${i}` }] }));

  it(`accepts ${MAX_OPERATIONS} operations`, async () => {
    const result = await editOk(service, admin, {
      operations: appOps(MAX_OPERATIONS),
      summary: 'Many',
    });
    expect(result.applied_paths).toHaveLength(MAX_OPERATIONS);
  });

  it(`refuses ${MAX_OPERATIONS + 1} operations with 400`, async () => {
    const problem = expectProblem(
      await edit(service, admin, { operations: appOps(MAX_OPERATIONS + 1), summary: 'Many' }),
      400,
      'invalid_request',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual(['/operations']);
    expect(await configCount()).toBe(1);
  });

  /**
   * `count` update_app items of one app in 10 operations: the cheapest items to apply, so the
   * test measures the limit, not the cost of the edit.
   */
  const itemOps = (count: number) =>
    Array.from({ length: 10 }, (_, op) => ({
      update_app: Array.from(
        { length: Math.floor(count / 10) + (op < count % 10 ? 1 : 0) },
        (_, i) => ({ id: 'one', name: `Name ${op}-${i}` }),
      ),
    }));
  const itemCount = (operations: ReturnType<typeof itemOps>) =>
    operations.reduce((sum, operation) => sum + operation.update_app.length, 0);

  it(`accepts ${MAX_ITEMS} items in all`, async () => {
    const draft = await editOk(service, admin, { operations: [CREATE_APP('one')], summary: 'One' });
    const operations = itemOps(MAX_ITEMS);
    expect(itemCount(operations)).toBe(MAX_ITEMS);
    const result = await editOk(service, admin, {
      operations,
      config_id: draft.id,
      summary: 'Many items',
    });
    expect(result.applied_paths).toEqual(['/apps/0/name']);
    expect(result.revision).toBe(2);
    expect(dataOf(result.validation.yaml ?? '').apps?.[0]?.name).toBe('Name 9-999');
  });

  it(`refuses ${MAX_ITEMS + 1} items with 400`, async () => {
    const draft = await editOk(service, admin, { operations: [CREATE_APP('one')], summary: 'One' });
    const operations = itemOps(MAX_ITEMS + 1);
    expect(itemCount(operations)).toBe(MAX_ITEMS + 1);
    const problem = expectProblem(
      await edit(service, admin, { operations, config_id: draft.id, summary: 'Many items' }),
      400,
      'invalid_request',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual(['/operations']);
    expect((await ok(service, admin, 'getConfig', { params: { id: draft.id } })).revision).toBe(1);
  });
});

describe('unknown routes', () => {
  beforeEach(async () => {
    service = await startTestService();
    admin = service.adminKey;
  });

  it.each([
    ['GET', '/api/v1/nope'],
    ['GET', '/api/v2/configs'],
    ['POST', '/api/v1/configs'],
    ['PUT', '/api/v1/config/edit'],
    ['GET', '/'],
  ] as const)('answers %s %s with a 404 problem', async (method, url) => {
    const problem = expectProblem(await service.call(admin, { method, url }), 404, 'not_found');
    expect(problem.detail).toContain(url.split('?')[0]);
  });

  it('answers DELETE /configs/live (no such config) with a 404 problem', async () => {
    expectProblem(
      await service.call(admin, { method: 'DELETE', url: '/api/v1/configs/live' }),
      404,
      'not_found',
    );
  });

  it('answers an unknown route without a key with 404 too', async () => {
    expectProblem(await service.call(undefined, { method: 'GET', url: '/api/v1/nope' }), 404);
  });
});

describe('the rate limit, per key', () => {
  beforeEach(async () => {
    service = await startTestService({ rateLimit: { rps: 5, burst: 5 } });
    admin = service.adminKey;
  });

  it('answers the 6th request of a burst with 429, Retry-After and a problem', async () => {
    for (let i = 0; i < 5; i++) await ok(service, admin, 'getAuthStatus');
    const response = await send(service, admin, 'getAuthStatus');
    const problem = expectProblem(response, 429, 'rate_limited');
    expect(problem.title).toBe('Too many requests');
    const retryAfter = Number(response.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // Any endpoint: the bucket is the key's.
    expectProblem(await send(service, admin, 'listConfigs'), 429);
  });

  it('limits each key on its own', async () => {
    const viewer = await service.keyFor('viewer');
    for (let i = 0; i < 5; i++) await ok(service, admin, 'getAuthStatus');
    expectProblem(await send(service, admin, 'getAuthStatus'), 429);
    for (let i = 0; i < 5; i++) await ok(service, viewer, 'getAuthStatus');
    expectProblem(await send(service, viewer, 'getAuthStatus'), 429);
  });

  it('limits a burst of concurrent requests', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => send(service, admin, 'listConfigs')),
    );
    const statuses = responses.map((response) => expectConforming('listConfigs', response)).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
  });

  it('counts made-up, malformed and revoked keys against the client address', async () => {
    const invented = 'sk_' + 'A'.repeat(40);
    for (let i = 0; i < 3; i++) expectProblem(await send(service, invented, 'getAuthStatus'), 401);
    for (let i = 0; i < 2; i++) expectProblem(await send(service, `sk_${i}`, 'getAuthStatus'), 401);
    // Five bad keys from one address: the sixth request without a valid key is limited.
    expectProblem(await send(service, undefined, 'getOpenApiDocument'), 429);
    // A valid key still has its own bucket.
    await ok(service, admin, 'getAuthStatus');
  });

  it('limits requests without a key per client address', async () => {
    for (let i = 0; i < 5; i++) await ok(service, undefined, 'getOpenApiDocument');
    expectProblem(await send(service, undefined, 'getOpenApiDocument'), 429);
    // A key has its own bucket.
    await ok(service, admin, 'getAuthStatus');
  });
});

describe('the rate limit, per client address', () => {
  let consoleDir: string;

  beforeEach(async () => {
    consoleDir = mkdtempSync(join(tmpdir(), 'console-'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Console</title>');
    mkdirSync(join(consoleDir, 'assets'));
    writeFileSync(join(consoleDir, 'assets', 'entry.js'), 'export {};');
    service = await startTestService({ rateLimit: { rps: 5, burst: 5 }, consoleDir });
    admin = service.adminKey;
  });

  afterEach(() => rmSync(consoleDir, { recursive: true, force: true }));

  const get = (url: string, headers: Record<string, string> = {}) =>
    service.call(undefined, { method: 'GET', url, headers });

  it('never counts GET /health nor the console: they answer after a flood from that address', async () => {
    for (let i = 0; i < 5; i++) await ok(service, undefined, 'getOpenApiDocument');
    expectProblem(await send(service, undefined, 'getOpenApiDocument'), 429);
    for (let i = 0; i < 20; i++) {
      expect((await send(service, undefined, 'getHealth')).statusCode).toBe(200);
      expect((await get('/')).statusCode).toBe(200);
      expect((await get('/index.html')).statusCode).toBe(200);
      expect((await get('/assets/entry.js')).statusCode).toBe(200);
      // A page of the console, answered by index.html.
      expect((await get('/configs/abc', { accept: 'text/html' })).statusCode).toBe(200);
    }
  });

  it('and they do not use up the limit of the API', async () => {
    for (let i = 0; i < 20; i++) {
      await ok(service, undefined, 'getHealth');
      expect((await get('/')).statusCode).toBe(200);
      expect((await get('/assets/entry.js')).statusCode).toBe(200);
    }
    for (let i = 0; i < 5; i++) await ok(service, undefined, 'getOpenApiDocument');
    expectProblem(await send(service, undefined, 'getOpenApiDocument'), 429);
  });
});

describe('TRUST_PROXY', () => {
  const forwarded = (client: string) =>
    send(service, undefined, 'getOpenApiDocument', { headers: { 'x-forwarded-for': client } });

  it('takes the client address from X-Forwarded-For when the peer is a trusted proxy', async () => {
    service = await startTestService({
      rateLimit: { rps: 5, burst: 5 },
      http: { ...DEFAULT_HTTP_SETTINGS, trustProxy: ['127.0.0.1'] },
    });
    // inject's requests come from 127.0.0.1, the proxy here.
    for (let i = 0; i < 5; i++)
      expectConforming('getOpenApiDocument', await forwarded('203.0.113.7'));
    expectProblem(await forwarded('203.0.113.7'), 429);
    // Another client behind the same proxy has its own limit.
    for (let i = 0; i < 5; i++) expect((await forwarded('203.0.113.8')).statusCode).toBe(200);
    expectProblem(await forwarded('203.0.113.8'), 429);
  });

  it('believes no X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    service = await startTestService({
      rateLimit: { rps: 5, burst: 5 },
      http: { ...DEFAULT_HTTP_SETTINGS, trustProxy: ['10.0.0.0/8'] },
    });
    for (let i = 0; i < 5; i++) expect((await forwarded(`203.0.113.${i}`)).statusCode).toBe(200);
    expectProblem(await forwarded('203.0.113.99'), 429);
  });

  it('is off by default: the header is ignored', async () => {
    service = await startTestService({ rateLimit: { rps: 5, burst: 5 } });
    for (let i = 0; i < 5; i++) expect((await forwarded(`203.0.113.${i}`)).statusCode).toBe(200);
    expectProblem(await forwarded('203.0.113.99'), 429);
  });
});
