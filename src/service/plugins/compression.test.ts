/**
 * API answers compressed: JSON over 1 KiB in brotli or gzip as the client accepts, small
 * answers and 304s as they are, and never an event stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expectProblem, send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import { isCompressible } from './compression';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.close();
});

function decoded(encoding: string | undefined, body: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return gunzipSync(body).toString();
  return body.toString();
}

describe('compression of API answers', () => {
  it('compresses JSON over 1 KiB as the client accepts: brotli, else gzip, else not', async () => {
    for (const name of ['getOpenApiDocument', 'getConfigSchema'] as const) {
      const plain = await send(service, service.adminKey, name);
      expect(plain.headers['content-encoding'], name).toBeUndefined();
      expect(plain.rawPayload.length, name).toBeGreaterThan(1024);
      for (const [accepted, sent] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip', 'gzip'],
        ['identity', undefined],
      ] as const) {
        const answer = await send(service, service.adminKey, name, {
          headers: { 'accept-encoding': accepted },
        });
        expect(answer.statusCode, `${name} ${accepted}`).toBe(200);
        expect(answer.headers['content-encoding'], `${name} ${accepted}`).toBe(sent);
        if (sent) {
          expect(answer.headers.vary, name).toContain('accept-encoding');
          expect(answer.rawPayload.length, name).toBeLessThan(plain.rawPayload.length / 2);
        }
        expect(JSON.parse(decoded(sent, answer.rawPayload)), name).toEqual(JSON.parse(plain.body));
      }
    }
  });

  it('sends small answers, problems and 304s as they are', async () => {
    const accept = { 'accept-encoding': 'gzip, br' };
    const status = await send(service, service.adminKey, 'getAuthStatus', { headers: accept });
    expect(status.statusCode).toBe(200);
    expect(status.headers['content-encoding']).toBeUndefined();
    const health = await send(service, undefined, 'getHealth', { headers: accept });
    expect(health.headers['content-encoding']).toBeUndefined();
    const missing = await send(service, service.adminKey, 'getConfig', {
      params: { id: 'cfg_NOPE' },
      headers: accept,
    });
    expectProblem(missing, 404, 'not_found');
    expect(missing.headers['content-encoding']).toBeUndefined();
    const first = await send(service, service.adminKey, 'getConfigSchema');
    const unchanged = await send(service, service.adminKey, 'getConfigSchema', {
      headers: { ...accept, 'if-none-match': String(first.headers.etag) },
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.headers['content-encoding']).toBeUndefined();
    expect(unchanged.rawPayload.length).toBe(0);
  });

  it('takes JSON and problem+json, never an event stream', () => {
    expect(isCompressible('application/json; charset=utf-8')).toBe(true);
    expect(isCompressible('application/problem+json')).toBe(true);
    expect(isCompressible('text/event-stream')).toBe(false);
    expect(isCompressible('text/event-stream; charset=utf-8')).toBe(false);
    expect(isCompressible('text/html')).toBe(false);
  });
});
