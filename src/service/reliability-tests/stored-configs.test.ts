/**
 * Nothing stored can fail to be read, edited or written later: random sequences of edits
 * (ordinary ones, and hostile ones with deep pointers and values nested from a few levels
 * to 20,000) and publishes, then a restart (a fresh app on the same database, so no parsed
 * document is cached): every config the account holds parses from its stored text without
 * an issue of the parser, and takes a further `set` and `unset`. No step answers 5xx.
 */
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isMap, isSeq } from 'yaml';
import { MAX_NESTING_DEPTH } from '../../contract/limits';
import type { Operation } from '../../contract/operations';
import { parseConfig } from '../../configs/parse';
import { operationArb } from '../../configs/testing/edit-arbitraries';
import { buildApp } from '../app';
import { createAccount, createApiKey } from '../testing/made-at';
import { edit, expectSuccess, ok, send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import { reportFigure, runLength } from '../testing/run-length';

let service: TestService;
let accounts = 0;
/** `<what> <status> <code>` -> how often: proof that the sequences reach both sides. */
const outcomes = new Map<string, number>();
function count(what: string, response: LightMyRequestResponse): void {
  const code =
    response.statusCode >= 400 ? ` ${String(response.json<{ code: string }>().code)}` : '';
  const key = `${what} ${response.statusCode}${code}`;
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
}

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.close();
});

async function newAccount(): Promise<string> {
  accounts++;
  const now = new Date();
  const account = await createAccount(service.store, {
    name: `Stored ${accounts}`,
    ownerEmail: `stored${accounts}@example.com`,
    initialYaml: 'apps:\n  - id: web\n    name: Web\n    platform: web\n',
    now,
  });
  const user = await service.store.getUser(account.user_id);
  if (!user) throw new Error('no owner');
  return (await createApiKey(service.store, { user, name: 'stored', actor: null, now })).secret;
}

/**
 * The JSON text of the nested values below: JSON.stringify recurses per level and would
 * overflow the test's own stack before the request is sent.
 */
const spellings = new WeakMap<object, string>();

/** Lists or mappings nested `levels` deep around a scalar. */
const nestedArb = fc
  .record({
    levels: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 32 }) },
      { weight: 1, arbitrary: fc.integer({ min: 33, max: 40 }) },
      // Where the parser and writer recurse past their stack: a worker's stack is larger
      // than the server's main thread's, so the band reaches well beyond 1,000.
      { weight: 1, arbitrary: fc.integer({ min: 900, max: 20_000 }) },
    ),
    maps: fc.boolean(),
  })
  .map(({ levels, maps }) => {
    let value: unknown = 'leaf';
    for (let level = 0; level < levels; level++) value = maps ? { k: value } : [value];
    if (typeof value === 'object' && value !== null) {
      const [open, close] = maps ? ['{"k":', '}'] : ['[', ']'];
      spellings.set(value, `${open.repeat(levels)}"leaf"${close.repeat(levels)}`);
      // A counterexample reads as its depth: fast-check would recurse through it too.
      Object.defineProperty(value, fc.toStringMethod, {
        value: () => `${levels} nested ${maps ? 'mappings' : 'lists'}`,
      });
    }
    return value;
  });

/** A request body as JSON text, the nested values spelt out without recursion. */
function jsonText(body: unknown): string {
  const deep: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    const spelled = typeof value === 'object' && value !== null ? spellings.get(value) : undefined;
    if (spelled === undefined) return value;
    deep.push(spelled);
    return `\u0000${deep.length - 1}`;
  });
  const spelt = text.replace(
    /"\\u0000(\d+)"/g,
    (_match, index: string) => deep[Number(index)] ?? '',
  );
  expect(spelt).not.toContain('\\u0000');
  return spelt;
}

const tokenArb = fc.constantFrom('a', 'b', 'apps', '0', '1', '-', 'settings', 'x~1y');
const pointerArb = fc.oneof(
  fc.array(tokenArb, { maxLength: 40 }).map((tokens) => tokens.map((t) => `/${t}`).join('')),
  fc.constantFrom('/apps/0/settings/theme', '/apps/-', '/deep'),
);

/** A `set` whose pointer and value together reach about the limit, either side of it. */
const nearLimitArb = fc
  .record({ tokens: fc.integer({ min: 1, max: 10 }), over: fc.integer({ min: -2, max: 2 }) })
  .map(({ tokens, over }) => {
    let value: unknown = 'leaf';
    for (let level = 0; level < MAX_NESTING_DEPTH - tokens + over; level++) value = [value];
    return { set: [{ path: '/near'.repeat(tokens), value }] };
  });

const hostileArb: fc.Arbitrary<Operation> = fc.oneof(
  fc.tuple(pointerArb, nestedArb).map(([path, value]) => ({ set: [{ path, value }] })),
  { weight: 3, arbitrary: nearLimitArb },
  pointerArb.map((path) => ({ unset: [{ path }] })),
  fc.tuple(fc.constantFrom('web', 'new'), nestedArb).map(([id, value]) => ({
    create_app: [{ id, name: 'App', platform: 'web', settings: { x: value } }],
  })),
  fc
    .tuple(fc.constantFrom('settings', 'note'), nestedArb)
    .map(([field, value]) => ({ update_app: [{ id: 'web', [field]: value }] })),
);

type Step =
  | { readonly kind: 'edit'; readonly operations: Operation[]; readonly onDraft: boolean }
  | { readonly kind: 'publish' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      operations: fc.array(fc.oneof(hostileArb, operationArb), { minLength: 1, maxLength: 2 }),
      onDraft: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'publish' as const }) },
);

/** The service again on the same database: a new app, with nothing cached. */
function restarted(app: FastifyInstance): TestService {
  return {
    ...service,
    app,
    call: (key, request) =>
      app.inject({
        ...request,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(request.headers ?? {}) },
      }),
  };
}

/** A `set` that any readable config takes, whatever its root: a mapping, a list or a scalar. */
function probeOf(yaml: string): Operation {
  const root = parseConfig(yaml).document.contents;
  if (isSeq(root)) return { set: [{ path: '/-', value: 'probe' }] };
  if (isMap(root) || root === null) return { set: [{ path: '/probe', value: 1 }] };
  return { set: [{ path: '', value: { probe: 1 } }] };
}

it('any accepted edits leave configs that still parse and edit after a restart', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 8 }), async (steps) => {
      const key = await newAccount();
      let draftId: string | undefined;
      for (const step of steps) {
        if (step.kind === 'publish') {
          if (!draftId) continue;
          const response = await send(service, key, 'publishConfig', {
            params: { id: draftId },
          });
          count('publish', response);
          expect(response.statusCode, response.body).toBeLessThan(500);
          if (response.statusCode === 200) draftId = undefined;
          continue;
        }
        const body = {
          operations: step.operations,
          summary: 'Step',
          ...(step.onDraft && draftId ? { config_id: draftId } : {}),
        };
        const response = await edit(service, key, jsonText(body), {
          'content-type': 'application/json',
        });
        count('edit', response);
        expect(response.statusCode, response.body).toBeLessThan(500);
        if (response.statusCode === 200) {
          const result = expectSuccess('editConfig', response);
          if (result.kind === 'draft') draftId = result.id;
        }
      }

      const app = await buildApp({ store: service.store, rateLimit: { rps: 0, burst: 0 } });
      try {
        const fresh = restarted(app);
        for (const { id } of await ok(fresh, key, 'listConfigs')) {
          const { yaml } = await ok(fresh, key, 'getConfig', { params: { id } });
          expect(parseConfig(yaml).syntaxIssues).toEqual([]);
          const set = await edit(fresh, key, {
            operations: [probeOf(yaml)],
            config_id: id,
            summary: 'Probe',
          });
          const probed = expectSuccess('editConfig', set);
          const [path] = probed.applied_paths;
          if (path === undefined || path === '') continue;
          const unset = await edit(fresh, key, {
            operations: [{ unset: [{ path }] }],
            config_id: probed.id,
            summary: 'Unprobe',
          });
          expectSuccess('editConfig', unset);
        }
      } finally {
        await app.close();
      }
    }),
    { numRuns: runLength(25, 150), endOnFailure: true },
  );
  // The sequences reached both sides of the limits.
  const seen = [...outcomes.keys()];
  expect(seen).toContain('edit 200');
  expect(seen).toContain('edit 400 config.too_deep');
  expect(seen).toContain('edit 400 invalid_request');
  reportFigure(
    `stored configs after a restart: ${accounts} sequences (${[...outcomes].map(([what, n]) => `${what}: ${n}`).join(', ')}); every config parsed and took a set and an unset`,
  );
}, 600_000);
