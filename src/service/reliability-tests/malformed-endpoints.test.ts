/**
 * Bad input against every endpoint (docs/reliability.md): generated
 * malformed requests for each entry of the contract's endpoint table (wrong methods, bad
 * keys, bad ids, queries, headers and bodies: see testing/malformed-arbitraries.ts). Every answer is
 * a problem+json 4xx (401 for a bad key), never a 5xx, nothing is saved, and the service
 * still answers. `malformed-requests.test.ts` adds 10,000 bodies on the edit endpoint alone.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENDPOINT_NAMES } from '../../contract/endpoints';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../contract/problem';
import { CREATE_APP, edit, editOk, errorPaths, expectProblem, ok, send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import { malformedRequestFor, type Targets } from '../testing/malformed-arbitraries';
import { reportFigure, runLength } from '../testing/run-length';

const RUNS_PER_ENDPOINT = runLength(250, 1_500);

let service: TestService;
let targets: Targets;
beforeAll(async () => {
  service = await startTestService();
  const draft = await editOk(service, service.adminKey, {
    operations: [CREATE_APP('seed')],
    summary: 'The draft',
  });
  const other = await service.otherAccount();
  const keys = await ok(service, service.adminKey, 'listApiKeys');
  targets = {
    key: service.adminKey,
    draftId: draft.id,
    liveId: service.account.live_config_id,
    apiKeyId: keys[0]?.id ?? '',
    foreignConfigId: other.account.live_config_id,
  };
});
afterAll(async () => {
  await service.close();
});

/** Everything a malformed request could have changed. */
async function snapshot() {
  const [configs, keys, draft, live] = await Promise.all([
    ok(service, service.adminKey, 'listConfigs'),
    ok(service, service.adminKey, 'listApiKeys'),
    ok(service, service.adminKey, 'getConfig', { params: { id: targets.draftId } }),
    ok(service, service.adminKey, 'getLiveConfig'),
  ]);
  return { configs, keys: keys.map(({ last_used_at: _used, ...key }) => key), draft, live };
}

it(`${ENDPOINT_NAMES.length} endpoints × ${RUNS_PER_ENDPOINT} malformed requests: each a problem+json 4xx, nothing saved`, async () => {
  const before = await snapshot();
  const byCategory = new Map<string, number>();
  let tried = 0;
  for (const name of ENDPOINT_NAMES) {
    await fc.assert(
      fc.asyncProperty(malformedRequestFor(name, targets), async (request) => {
        tried++;
        byCategory.set(request.category, (byCategory.get(request.category) ?? 0) + 1);
        const response = await service.app.inject({
          method: request.method as 'GET',
          url: request.url,
          headers: request.headers,
          ...(request.payload !== undefined ? { payload: request.payload } : {}),
        });
        const what = `${name} ${request.category}: ${request.method} ${request.url.slice(0, 80)} -> ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect(response.statusCode, what).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, what).toBeLessThan(500);
        if (request.category === 'bad key') expect(response.statusCode, what).toBe(401);
        expect(response.headers['content-type'], what).toContain(PROBLEM_CONTENT_TYPE);
        const problem = problemSchema.safeParse(response.json());
        expect(problem.success, what).toBe(true);
        expect(problem.data?.status, what).toBe(response.statusCode);
      }),
      { numRuns: RUNS_PER_ENDPOINT },
    );
  }
  expect(tried).toBe(ENDPOINT_NAMES.length * RUNS_PER_ENDPOINT);
  // Every category was tried, on some endpoint.
  expect([...byCategory.keys()].sort()).toEqual(
    [
      'bad If-Match',
      'bad id',
      'bad key',
      'bad query',
      'not JSON',
      'not an object',
      'too large',
      'wrong content type',
      'wrong method',
      'wrong shape',
    ].sort(),
  );
  reportFigure(
    `malformed requests on every endpoint: ${tried} (${[...byCategory].map(([c, n]) => `${c} ${n}`).join(', ')}), 0 not a problem+json 4xx`,
  );

  // The service still answers, and nothing was saved.
  expect((await service.call(undefined, { method: 'GET', url: '/api/v1/health' })).statusCode).toBe(
    200,
  );
  expect(await snapshot()).toEqual(before);
}, 600_000);

it('refuses a lone surrogate with its path, and stores a surrogate pair as sent', async () => {
  const refused = await send(service, service.adminKey, 'createApiKey', {
    payload: { name: 'x\ud800y' },
  });
  expect(errorPaths(expectProblem(refused, 400, 'invalid_request'))).toEqual(['/name']);
  const nested = await edit(service, service.adminKey, {
    config_id: targets.draftId,
    operations: [
      { create_app: [{ id: 'u', name: 'App', platform: 'web', settings: { 'k\udc00': 1 } }] },
    ],
    summary: 'Nested',
  });
  expect(errorPaths(expectProblem(nested, 400))).toEqual([
    '/operations/0/create_app/0/settings/k\udc00',
  ]);

  const name = 'Family 👩‍👩‍👧‍👦 key';
  const created = await ok(service, service.adminKey, 'createApiKey', { payload: { name } });
  expect(created.name).toBe(name);
  const listed = await ok(service, service.adminKey, 'listApiKeys');
  expect(listed.find((key) => key.id === created.id)?.name).toBe(name);
  await ok(service, service.adminKey, 'revokeApiKey', { params: { id: created.id } });
});
