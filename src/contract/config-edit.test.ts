import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  configEditRequestSchema,
  configEditResultSchema,
  MAX_ITEMS,
  MAX_OPERATIONS,
  type ConfigEditResult,
} from './config-edit';
import { MAX_NESTING_DEPTH, MAX_POINTER_LENGTH } from './limits';
import { ACTION_KEYS, operations, type Operation } from './operations';
import { zodIssuesToProblemErrors } from './problem';

/** The problem `errors` a body is refused with; fails the test if it is accepted. */
function refusal(body: unknown) {
  const result = configEditRequestSchema.safeParse(body);
  if (result.success) throw new Error(`accepted: ${JSON.stringify(body).slice(0, 200)}`);
  return zodIssuesToProblemErrors(result.error.issues);
}
const refusedPaths = (body: unknown) => refusal(body).map((error) => error.path);
const accepts = (body: unknown) =>
  expect(configEditRequestSchema.safeParse(body).success).toBe(true);

const app = (id: string) => ({ id, name: id, platform: 'web' });
const createApps = (count: number, prefix = 'app'): Operation => ({
  create_app: Array.from({ length: count }, (_, index) => app(`${prefix}-${index}`)),
});

describe('the request and result shapes', () => {
  it('parses a config edit request with create_app', () => {
    const request = {
      config_id: 'cfg_123',
      summary: 'Add checkout',
      operations: [
        {
          create_app: [
            { id: 'checkout', name: 'Checkout', platform: 'web', settings: { theme: 'dark' } },
          ],
        },
      ],
    };
    expect(configEditRequestSchema.parse(request)).toEqual(request);
  });

  const result: ConfigEditResult = {
    id: 'cfg_draft',
    account_id: 'acc_1',
    kind: 'draft',
    created: true,
    base_config_id: 'cfg_live',
    applied_paths: ['/apps/0'],
    applied_ranges: [{ path: '/apps/0', line: 2, column: 5, length: 40 }],
    merged_revisions: [],
    config: {
      id: 'cfg_draft',
      kind: 'draft',
      label: 'Add checkout',
      revision: 1,
      live: false,
      base_config_id: 'cfg_live',
      created_at: '2026-11-23T10:00:00.000Z',
      updated_at: '2026-11-23T10:00:00.000Z',
      valid: true,
      error_count: 0,
      warning_count: 0,
    },
    validation: { valid: true, error_count: 0, warning_count: 0, issues: [] },
  };

  it('takes base_revision as a whole number from 1, and says which revisions an edit merged with', () => {
    const body = { operations: [operations.deleteApp('a')], summary: 'Tidy', base_revision: 3 };
    expect(configEditRequestSchema.parse(body)).toEqual(body);
    expect(refusedPaths({ ...body, base_revision: 0 })).toEqual(['/base_revision']);
    expect(refusedPaths({ ...body, base_revision: 1.5 })).toEqual(['/base_revision']);
    expect(refusedPaths({ ...body, base_revision: '3' })).toEqual(['/base_revision']);
    expect(configEditResultSchema.parse({ ...result, merged_revisions: [4, 5] })).toMatchObject({
      merged_revisions: [4, 5],
    });
    const { merged_revisions: _merged, ...withoutMerged } = result;
    expect(configEditResultSchema.safeParse(withoutMerged).success).toBe(false);
  });

  it('parses an edit result of kind draft, with a bare validation report', () => {
    expect(configEditResultSchema.parse(result)).toEqual(result);
  });

  it("refuses a result without the config's summary or the applied ranges", () => {
    const { config: _config, ...withoutConfig } = result;
    const { applied_ranges: _ranges, ...withoutRanges } = result;
    expect(configEditResultSchema.safeParse(withoutConfig).success).toBe(false);
    expect(configEditResultSchema.safeParse(withoutRanges).success).toBe(false);
    const badRange = {
      ...result,
      applied_ranges: [{ path: '/apps/0', line: 0, column: 1, length: 1 }],
    };
    expect(configEditResultSchema.safeParse(badRange).success).toBe(false);
  });

  it('parses an edit result of kind published, with revision and a full report', () => {
    const published = {
      ...result,
      kind: 'published',
      revision: 3,
      validation: {
        valid: true,
        error_count: 0,
        warning_count: 1,
        issues: [
          {
            code: 'ab_test.unknown_setting',
            message: 'app checkout has no setting button_size',
            path: '/ab_tests/0/variants/1/settings/button_size',
            line: 14,
            column: 11,
            length: 11,
            severity: 'warning',
          },
        ],
        yaml: 'apps: []\n',
        source: { type: 'published', name: 'Start A/B test bigger-button' },
      },
    };
    expect(configEditResultSchema.parse(published)).toEqual(published);
  });

  it('refuses a result of another kind', () => {
    expect(configEditResultSchema.safeParse({ ...result, kind: 'live' }).success).toBe(false);
  });
});

describe('malformed requests are refused with the path of what is wrong', () => {
  it('the body is not an object', () => {
    expect(refusedPaths(null)).toEqual(['']);
    expect(refusedPaths([])).toEqual(['']);
    expect(refusedPaths('operations')).toEqual(['']);
  });

  it('operations is missing', () => {
    expect(refusedPaths({ summary: 's' })).toEqual(['/operations']);
  });

  it('operations is not an array', () => {
    expect(refusedPaths({ summary: 's', operations: { create_app: [app('a')] } })).toEqual([
      '/operations',
    ]);
  });

  it('operations is empty', () => {
    expect(refusedPaths({ summary: 's', operations: [] })).toEqual(['/operations']);
  });

  it('an operation has zero action keys', () => {
    expect(refusedPaths({ summary: 's', operations: [createApps(1), {}] })).toEqual([
      '/operations/1',
    ]);
  });

  it('an operation has two action keys', () => {
    const errors = refusal({
      summary: 's',
      operations: [{ create_app: [app('a')], delete_app: [{ id: 'b' }] }],
    });
    expect(errors).toEqual([
      { path: '/operations/0', message: expect.stringContaining('create_app and delete_app') },
    ]);
  });

  it('an operation has an unknown action key', () => {
    expect(refusedPaths({ summary: 's', operations: [{ rename_app: [{ id: 'a' }] }] })).toEqual([
      '/operations/0/rename_app',
      '/operations/0',
    ]);
  });

  it('an operation is not an object', () => {
    expect(refusedPaths({ summary: 's', operations: ['create_app'] })).toEqual(['/operations/0']);
  });

  it('an item array is empty', () => {
    expect(refusedPaths({ summary: 's', operations: [{ create_app: [] }] })).toEqual([
      '/operations/0/create_app',
    ]);
  });

  it('an action value is not an array', () => {
    expect(refusedPaths({ summary: 's', operations: [{ create_app: app('a') }] })).toEqual([
      '/operations/0/create_app',
    ]);
  });

  it('a create_app item has no string id', () => {
    expect(refusedPaths({ summary: 's', operations: [{ create_app: [{ name: 'A' }] }] })).toEqual([
      '/operations/0/create_app/0/id',
    ]);
    expect(
      refusedPaths({ summary: 's', operations: [{ create_app: [app('a'), { id: 7 }] }] }),
    ).toEqual(['/operations/0/create_app/1/id']);
  });

  it('an item is not an object', () => {
    expect(refusedPaths({ summary: 's', operations: [{ delete_app: ['checkout'] }] })).toEqual([
      '/operations/0/delete_app/0',
    ]);
  });

  it('set has a path that is not a JSON Pointer', () => {
    for (const path of ['apps/0', '/apps/~2', '/a~', 7]) {
      expect(refusedPaths({ summary: 's', operations: [{ set: [{ path, value: 1 }] }] })).toEqual([
        '/operations/0/set/0/path',
      ]);
    }
  });

  it('set has no value', () => {
    expect(refusedPaths({ summary: 's', operations: [{ set: [{ path: '/apps' }] }] })).toEqual([
      '/operations/0/set/0/value',
    ]);
  });

  it('set accepts any JSON value, null included, and the whole document', () => {
    for (const value of [null, 0, false, '', [], {}, { apps: [] }]) {
      accepts({ summary: 's', operations: [{ set: [{ path: '/apps/0/settings/x', value }] }] });
    }
    accepts({ summary: 's', operations: [{ set: [{ path: '', value: {} }] }] });
    accepts({ summary: 's', operations: [{ set: [{ path: '/a~1b/~0c', value: 1 }] }] });
  });

  it('unset of "" (the whole document)', () => {
    expect(refusedPaths({ summary: 's', operations: [{ unset: [{ path: '' }] }] })).toEqual([
      '/operations/0/unset/0/path',
    ]);
    accepts({ summary: 's', operations: [{ unset: [{ path: '/apps/0/enabled' }] }] });
  });

  it('promote_ab_test has no variant', () => {
    expect(refusedPaths({ operations: [{ promote_ab_test: [{ id: 't' }] }] })).toEqual([
      '/operations/0/promote_ab_test/0/variant',
    ]);
    accepts({ operations: [operations.promoteAbTest('t', 'big')] });
  });

  it('an ordinary edit has no summary, or a blank one', () => {
    expect(refusedPaths({ operations: [createApps(1)] })).toEqual(['/summary']);
    expect(refusedPaths({ summary: '  ', operations: [createApps(1)] })).toEqual(['/summary']);
    expect(
      refusedPaths({ operations: [{ create_ab_test: [{ id: 't' }] }, createApps(1)] }),
    ).toEqual(['/summary']);
  });

  it('create_ab_test alone and lifecycle operations need no summary', () => {
    accepts({ operations: [{ create_ab_test: [{ id: 't', app: 'a', variants: [] }] }] });
    accepts({ operations: [operations.startAbTest('t')] });
    accepts({ operations: [operations.endAbTest('t'), operations.deleteAbTest('u')] });
  });

  it('lifecycle operations are mixed with ordinary ones', () => {
    const errors = refusal({
      summary: 's',
      operations: [operations.startAbTest('t'), createApps(1), operations.endAbTest('u')],
    });
    expect(errors).toEqual([
      { path: '/operations/1', message: expect.stringContaining('start_ab_test') },
    ]);
    expect(
      refusedPaths({ summary: 's', operations: [createApps(1), operations.startAbTest('t')] }),
    ).toEqual(['/operations/0']);
  });

  it('config_id is empty, or summary too long', () => {
    expect(refusedPaths({ config_id: '', summary: 's', operations: [createApps(1)] })).toEqual([
      '/config_id',
    ]);
    expect(refusedPaths({ summary: 'x'.repeat(201), operations: [createApps(1)] })).toEqual([
      '/summary',
    ]);
    accepts({ summary: 'x'.repeat(200), operations: [createApps(1)] });
  });
});

describe('limits', () => {
  it(`takes exactly ${MAX_OPERATIONS} operations and refuses one more`, () => {
    const ops = Array.from({ length: MAX_OPERATIONS }, (_, index) => createApps(1, `a${index}`));
    accepts({ summary: 's', operations: ops });
    expect(refusedPaths({ summary: 's', operations: [...ops, createApps(1, 'b')] })).toEqual([
      '/operations',
    ]);
  });

  it(`takes exactly ${MAX_ITEMS} items in all and refuses one more`, () => {
    const ops = Array.from({ length: 10 }, (_, index) => createApps(MAX_ITEMS / 10, `a${index}`));
    accepts({ summary: 's', operations: ops });
    const errors = refusal({ summary: 's', operations: [...ops, createApps(1, 'b')] });
    expect(errors).toEqual([{ path: '/operations', message: expect.stringContaining('10001') }]);
    expect(refusedPaths({ summary: 's', operations: [createApps(MAX_ITEMS + 1)] })).toEqual([
      '/operations',
    ]);
  });
});

describe('the pointer and nesting limits', () => {
  const nested = (levels: number): unknown =>
    Array.from({ length: levels }).reduce<unknown>((inner) => [inner], 1);
  const request = (operation: unknown) => ({ summary: 's', operations: [operation] });

  it(`takes a pointer of ${MAX_POINTER_LENGTH} characters and refuses one more, naming the limit`, () => {
    const longest = `/${'p'.repeat(MAX_POINTER_LENGTH - 1)}`;
    accepts(request(operations.set(longest, 1)));
    accepts(request(operations.unset(longest)));
    for (const operation of [operations.set(`${longest}p`, 1), operations.unset(`${longest}p`)]) {
      const errors = refusal(request(operation));
      expect(errors).toEqual([
        {
          path: `/operations/0/${Object.keys(operation)[0]}/0/path`,
          message: expect.stringContaining(String(MAX_POINTER_LENGTH)),
        },
      ]);
    }
  });

  it('refuses a pointer of 100,000 characters by its length alone', () => {
    expect(refusal(request(operations.set('/a'.repeat(50_000), 1)))).toEqual([
      { path: '/operations/0/set/0/path', message: expect.stringContaining('limit') },
    ]);
  });

  it(`takes values nested ${MAX_NESTING_DEPTH} levels and refuses one more, at the value's path`, () => {
    accepts(request(operations.set('', nested(MAX_NESTING_DEPTH))));
    expect(refusal(request(operations.set('', nested(MAX_NESTING_DEPTH + 1))))).toEqual([
      {
        path: '/operations/0/set/0/value',
        message: expect.stringContaining(String(MAX_NESTING_DEPTH)),
      },
    ]);
    // In every field of every action, unknown ones included; mappings count as lists do.
    const deepMap = {
      k: Array.from({ length: MAX_NESTING_DEPTH }).reduce<unknown>((inner) => ({ k: inner }), 1),
    };
    for (const key of ACTION_KEYS.filter((action) => action !== 'edit_text')) {
      expect(
        refusedPaths(
          request({
            [key]: [{ id: 'x', path: '/x', value: 1, variant: 'v', note: deepMap }],
          }),
        ),
      ).toEqual([`/operations/0/${key}/0/note`]);
    }
    expect(
      refusedPaths(
        request({ create_app: [{ id: 'x', settings: { a: nested(MAX_NESTING_DEPTH) } }] }),
      ),
    ).toEqual(['/operations/0/create_app/0/settings']);
  });

  it('refuses a value nested 100,000 levels deep without overflowing the stack', () => {
    expect(refusedPaths(request(operations.set('/deep', nested(100_000))))).toEqual([
      '/operations/0/set/0/value',
    ]);
  });
});

describe('any JSON body', () => {
  // Near misses of a request: right keys with wrong values, wrong keys, any nesting.
  const item = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.dictionary(
      fc.constantFrom('id', 'path', 'value', 'variant', 'name'),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  );
  const operation = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.dictionary(
      fc.constantFrom(...ACTION_KEYS, 'rename_app', ''),
      fc.oneof(fc.array(item, { maxLength: 3 }), fc.jsonValue({ maxDepth: 2 })),
      { maxKeys: 3 },
    ),
  );
  const body = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record(
      {
        operations: fc.oneof(fc.array(operation, { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
        summary: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
        config_id: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
      },
      { requiredKeys: [] },
    ),
  );

  it('is accepted or refused with JSON Pointers, never a throw', () => {
    fc.assert(
      fc.property(body, (input) => {
        const result = configEditRequestSchema.safeParse(input);
        if (result.success) return;
        const errors = zodIssuesToProblemErrors(result.error.issues);
        expect(errors.length).toBeGreaterThan(0);
        for (const error of errors) expect(error.path).toMatch(/^(\/[^/]*)*$/);
      }),
      { numRuns: 2_000 },
    );
  });
});
