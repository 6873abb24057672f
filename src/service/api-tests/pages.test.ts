/**
 * Pages of a list (docs/api.md, Pages): `limit` and `cursor`, a bare array, the next page in
 * `Link`; stable while items are added between pages; a bad cursor or limit is a 400 naming it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cursorOfPageUrl, nextPageUrlOf } from '../../contract/page-links';
import { errorPaths, expectProblem, expectSuccess, send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;

beforeEach(async () => {
  service = await startTestService();
});
afterEach(async () => {
  await service.close();
});

async function createKeys(count: number, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await send(service, service.adminKey, 'createApiKey', {
      payload: { name: `${prefix} ${i}` },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
}

/** Reads `limit` at a time, calling `between` after each page; the names in order. */
async function readAllKeys(limit: number, between?: () => Promise<void>) {
  const names: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const response = await send(service, service.adminKey, 'listApiKeys', {
      query: { limit: String(limit), ...(cursor ? { cursor } : {}) },
    });
    const page = expectSuccess('listApiKeys', response);
    expect(page.length).toBeLessThanOrEqual(limit);
    names.push(...page.map((key) => key.name));
    const next = nextPageUrlOf(response.headers.link as string | undefined);
    cursor = next === undefined ? undefined : cursorOfPageUrl(next);
    pages++;
    await between?.();
  } while (cursor !== undefined);
  return { names, pages };
}

describe('pages of a list', () => {
  it('pages through every item once, newest first, and the last page has no Link', async () => {
    await createKeys(6, 'key');
    const { names, pages } = await readAllKeys(3);
    // Six made here and the owner's: 7 in pages of 3.
    expect(pages).toBe(3);
    expect(names).toEqual(['key 5', 'key 4', 'key 3', 'key 2', 'key 1', 'key 0', 'Owner key']);
  });

  it('answers a short list whole, without Link, at the default limit', async () => {
    const response = await send(service, service.adminKey, 'listApiKeys');
    expect(expectSuccess('listApiKeys', response)).toHaveLength(1);
    expect(response.headers.link).toBeUndefined();
  });

  it('names the next page with the same filters and limit', async () => {
    await createKeys(2, 'key');
    const response = await send(service, service.adminKey, 'listApiKeys', {
      query: { limit: '1' },
    });
    const next = nextPageUrlOf(response.headers.link as string);
    expect(next).toMatch(/^\/api\/v1\/api-keys\?limit=1&cursor=[A-Za-z0-9_-]+$/);
    expect(response.headers.link).toMatch(/^<[^>]+>; rel="next"$/);
  });

  it('neither repeats nor skips an item when others are added between pages', async () => {
    await createKeys(5, 'before');
    let added = 0;
    const { names } = await readAllKeys(2, async () => createKeys(1, `during ${added++}`));
    const before = names.filter((name) => name.startsWith('before') || name === 'Owner key');
    expect(before).toEqual([
      'before 4',
      'before 3',
      'before 2',
      'before 1',
      'before 0',
      'Owner key',
    ]);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each([
    ['not base64url', '!!!'],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['of another list', Buffer.from('["configs","x","y"]').toString('base64url')],
    ['of the wrong shape', Buffer.from('["api_keys",{"a":1},"y"]').toString('base64url')],
    ['too long', 'a'.repeat(600)],
  ])('refuses a cursor %s with 400 naming cursor', async (_what, cursor) => {
    const response = await send(service, service.adminKey, 'listApiKeys', { query: { cursor } });
    expect(errorPaths(expectProblem(response, 400, 'invalid_request'))).toContain('/cursor');
  });

  it.each(['0', '201', '1.5', 'ten', '-3'])(
    'refuses limit=%s with 400 naming limit',
    async (limit) => {
      const response = await send(service, service.adminKey, 'listApiKeys', { query: { limit } });
      expect(errorPaths(expectProblem(response, 400, 'invalid_request'))).toContain('/limit');
    },
  );

  it('takes limit=200, the most', async () => {
    const response = await send(service, service.adminKey, 'listApiKeys', {
      query: { limit: '200' },
    });
    expect(expectSuccess('listApiKeys', response)).toHaveLength(1);
  });
});
