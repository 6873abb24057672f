/**
 * 10,000 generated malformed requests (wrong types, missing fields, two action
 * keys, deep nesting, huge strings, non-JSON, wrong content types, bad pointers) get no 5xx:
 * every one is a problem+json 4xx, nothing is saved, and the server still answers.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../contract/problem';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.close();
});

const actionKey = fc.constantFrom(
  'create_app',
  'update_app',
  'delete_app',
  'set',
  'unset',
  'create_ab_test',
  'update_ab_test',
  'start_ab_test',
  'end_ab_test',
  'promote_ab_test',
  'delete_ab_test',
  'rename_app',
  '',
  '__proto__',
  'constructor',
);

const weirdValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 5_000 }),
  fc.constant('x'.repeat(200_000)),
  fc.integer().map((depth) => {
    // Deep nesting, up to a few thousand levels.
    let value: unknown = 1;
    for (let i = 0; i < Math.abs(depth % 3_000); i++) value = [value];
    return value;
  }),
);

const badItem = fc.oneof(
  weirdValue,
  fc.record({ id: weirdValue }),
  fc.record({
    path: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('apps', '/~2', '~', '/apps/-1')),
    value: weirdValue,
  }),
  fc.record({ id: fc.string({ maxLength: 8 }), variant: weirdValue }),
);

const badOperation = fc.oneof(
  weirdValue,
  fc.dictionary(actionKey, fc.oneof(weirdValue, fc.array(badItem, { maxLength: 3 })), {
    maxKeys: 3,
  }),
  actionKey.chain((key) => fc.array(badItem, { maxLength: 3 }).map((items) => ({ [key]: items }))),
);

/** A body and content type that the edit endpoint must refuse (or, rarely, accept). */
const badRequest = fc.oneof(
  fc
    .record(
      {
        operations: fc.oneof(weirdValue, fc.array(badOperation, { maxLength: 4 })),
        summary: weirdValue,
        config_id: weirdValue,
      },
      { requiredKeys: [] },
    )
    .map((body) => ({
      payload: JSON.stringify(body),
      contentType: 'application/json',
    })),
  weirdValue.map((body) => ({
    payload: JSON.stringify(body) ?? 'null',
    contentType: 'application/json',
  })),
  fc
    .string({ maxLength: 200 })
    .map((text) => ({ payload: `{${text}`, contentType: 'application/json' })),
  fc
    .tuple(
      fc.constantFrom(
        'text/plain',
        'application/xml',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'application/jsonx',
      ),
      fc.string({ maxLength: 50 }),
    )
    .map(([contentType, payload]) => ({ payload: payload || 'x', contentType })),
);

describe('malformed requests', () => {
  it('10,000 of them: never a 5xx, always a problem+json 4xx, and the server still answers', async () => {
    const liveBefore = (
      await service.call(service.adminKey, { method: 'GET', url: '/api/v1/configs/live' })
    ).json();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(badRequest, async ({ payload, contentType }) => {
        const response = await service.call(service.adminKey, {
          method: 'POST',
          url: '/api/v1/config/edit',
          headers: { 'content-type': contentType },
          payload,
        });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        expect(response.statusCode).toBeLessThan(500);
        if (response.statusCode >= 400) {
          expect(response.headers['content-type']).toContain(PROBLEM_CONTENT_TYPE);
          expect(problemSchema.safeParse(response.json()).success).toBe(true);
        }
      }),
      { numRuns: 10_000 },
    );
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
    const health = await service.call(undefined, { method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
    // Nothing reached the live config, and the only rows made are drafts of accepted edits.
    const liveAfter = (
      await service.call(service.adminKey, { method: 'GET', url: '/api/v1/configs/live' })
    ).json();
    expect(liveAfter).toEqual(liveBefore);
    const configs = (
      await service.call(service.adminKey, { method: 'GET', url: '/api/v1/configs' })
    ).json() as unknown[];
    expect(configs).toHaveLength(1 + (statuses.get(200) ?? 0));
  }, 300_000);
});
