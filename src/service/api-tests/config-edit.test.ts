/**
 * POST /config/edit: the target, drafts, applied_paths and their ranges, the config's
 * summary, the validation report, the request shape (400), refusals (409, 422), 404 across
 * accounts, and If-Match (412). Every refusal leaves the database as it was.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppliedRange, ConfigEditResult } from '../../contract/config-edit';
import { etagOf } from '../../contract/configs';
import {
  accountSnapshot,
  CREATE_APP,
  SHOP_YAML,
  dataOf,
  edit,
  editOk,
  errorPaths,
  expectProblem,
  ok,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;
let admin: string;

beforeEach(async () => {
  service = await startTestService({ initialYaml: SHOP_YAML });
  admin = service.adminKey;
});
afterEach(async () => {
  await service.close();
});

const snapshot = () => accountSnapshot(service, admin);

const TEST_ITEM = {
  id: 'new-test',
  app: 'ios-app',
  variants: [
    { id: 'a', weight: 50 },
    { id: 'b', weight: 50 },
  ],
};

describe('the target of an edit', () => {
  it('copies the live config into a new draft when config_id is omitted', async () => {
    const result = await editOk(service, admin, {
      operations: [CREATE_APP('android-app', { platform: 'android' })],
      summary: 'Add the Android app',
    });
    expect(result).toMatchObject({
      kind: 'draft',
      created: true,
      base_config_id: service.account.live_config_id,
      account_id: service.account.account_id,
      revision: 1,
      applied_paths: ['/apps/2'],
    });
    expect(result.etag).toBe(etagOf(result.id, 1));
    expect(result.id).toMatch(/^cfg_/);
    expect(result.id).not.toBe(service.account.live_config_id);
    expect(result.validation).toMatchObject({
      valid: true,
      error_count: 0,
      source: { type: 'draft', name: 'Add the Android app' },
    });

    const draft = await ok(service, admin, 'getConfig', { params: { id: result.id } });
    expect(draft).toMatchObject({ kind: 'draft', label: 'Add the Android app', live: false });
    expect(draft.yaml).toBe(result.validation.yaml);
    expect(dataOf(draft.yaml).apps?.map((app) => app.id)).toEqual([
      'checkout',
      'ios-app',
      'android-app',
    ]);
    // The comment of the copied config survives.
    expect(draft.yaml.startsWith('# Apps this account provisions.\n')).toBe(true);
    // The live config is untouched.
    const live = await ok(service, admin, 'getLiveConfig');
    expect(live.id).toBe(service.account.live_config_id);
    expect(live.yaml).toBe(SHOP_YAML);
  });

  it('copies a named published config into a new draft', async () => {
    const result = await editOk(service, admin, {
      operations: [CREATE_APP('a')],
      config_id: service.account.live_config_id,
      summary: 'From the published one',
    });
    expect(result).toMatchObject({
      created: true,
      kind: 'draft',
      base_config_id: service.account.live_config_id,
    });
  });

  it('edits a draft in place and raises its revision', async () => {
    const first = await editOk(service, admin, {
      operations: [CREATE_APP('a')],
      summary: 'First',
    });
    const second = await editOk(service, admin, {
      operations: [CREATE_APP('b')],
      config_id: first.id,
      summary: 'Second',
    });
    expect(second).toMatchObject({
      id: first.id,
      kind: 'draft',
      created: false,
      base_config_id: first.id,
      revision: 2,
      etag: etagOf(first.id, 2),
      applied_paths: ['/apps/3'],
    });
    const drafts = await ok(service, admin, 'listConfigs', { query: { kind: 'draft' } });
    expect(drafts.map((draft) => draft.id)).toEqual([first.id]);
    const record = await ok(service, admin, 'getConfig', { params: { id: first.id } });
    expect(record.revision).toBe(2);
    // The draft keeps the name it was created with.
    expect(record.label).toBe('First');
    expect(dataOf(record.yaml).apps?.map((app) => app.id)).toEqual([
      'checkout',
      'ios-app',
      'a',
      'b',
    ]);
  });

  it('lists applied_paths in order and without duplicates', async () => {
    const result = await editOk(service, admin, {
      operations: [
        {
          update_app: [
            { id: 'checkout', name: 'Shop', settings: { theme: 'dark', button_size: null } },
          ],
        },
        { update_app: [{ id: 'checkout', name: 'Shop again' }] },
        { set: [{ path: '/apps/1/settings/onboarding', value: true }] },
        { unset: [{ path: '/apps/1/name' }] },
        { delete_app: [{ id: 'ios-app' }] },
        { create_ab_test: [TEST_ITEM] },
      ],
      summary: 'Many things',
    });
    expect(result.applied_paths).toEqual([
      '/apps/0/name',
      '/apps/0/settings/theme',
      '/apps/0/settings/button_size',
      '/apps/1/settings/onboarding',
      '/apps/1/name',
      '/apps/1',
      '/ab_tests/2',
    ]);
    const checkout = dataOf(result.validation.yaml ?? '').apps?.[0];
    expect(checkout).toEqual({
      id: 'checkout',
      name: 'Shop again',
      platform: 'web',
      settings: { theme: 'dark' },
    });
  });

  it('saves an invalid draft and reports each issue with line, column and length', async () => {
    const result = await editOk(service, admin, {
      operations: [CREATE_APP('desk', { platform: 'desktop', name: 'Desk 😀 app' })],
      summary: 'A desktop app',
    });
    expect(result.validation.valid).toBe(false);
    expect(result.validation.error_count).toBe(1);
    const [issue] = result.validation.issues;
    const yaml = result.validation.yaml ?? '';
    const lines = yaml.split('\n');
    const lineIndex = lines.findIndex((line) => line.includes('platform: desktop'));
    expect(lineIndex).toBeGreaterThan(0);
    expect(issue).toEqual({
      code: 'schema.enum',
      severity: 'error',
      message: expect.any(String),
      path: '/apps/2/platform',
      line: lineIndex + 1,
      column: (lines[lineIndex] ?? '').indexOf('desktop') + 1,
      length: 'desktop'.length,
    });
    // The draft is kept, with the same report.
    const draft = await ok(service, admin, 'getConfig', { params: { id: result.id } });
    expect(draft.validation.issues).toEqual(result.validation.issues);
    const [summary] = await ok(service, admin, 'listConfigs', { query: { kind: 'draft' } });
    expect(summary).toMatchObject({ id: result.id, valid: false, error_count: 1 });
  });

  it('counts columns in UTF-16 code units (an emoji is 2)', async () => {
    const result = await editOk(service, admin, {
      operations: [
        { set: [{ path: '/apps/1/settings', value: { '😀x': 1 } }] },
        { update_app: [{ id: 'ios-app', name: '' }] },
      ],
      summary: 'Bad names',
    });
    const yaml = result.validation.yaml ?? '';
    const lines = yaml.split('\n');
    for (const issue of result.validation.issues) {
      const line = lines[issue.line - 1] ?? '';
      expect(issue.column).toBeGreaterThanOrEqual(1);
      expect(issue.column - 1 + issue.length).toBeLessThanOrEqual(line.length + 1);
    }
    const keyIssue = result.validation.issues.find(
      (issue) => issue.path === '/apps/1/settings/😀x',
    );
    expect(keyIssue).toBeDefined();
    const line = lines[(keyIssue?.line ?? 1) - 1] ?? '';
    expect(line.slice((keyIssue?.column ?? 1) - 1)).toMatch(/^😀x/);
    expect(keyIssue?.length).toBe('😀x'.length);
    expect('😀x'.length).toBe(3);
  });
});

describe('summary', () => {
  it('is required for an ordinary edit (400 naming /summary), and nothing is saved', async () => {
    const before = await snapshot();
    for (const summary of [undefined, '', '   ']) {
      const response = await edit(service, admin, {
        operations: [CREATE_APP('a')],
        ...(summary !== undefined ? { summary } : {}),
      });
      const problem = expectProblem(response, 400, 'invalid_request');
      expect(errorPaths(problem)).toEqual(['/summary']);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('is optional for create_ab_test, whose draft gets a name of its own', async () => {
    const result = await editOk(service, admin, { operations: [{ create_ab_test: [TEST_ITEM] }] });
    expect(result).toMatchObject({ created: true, kind: 'draft', applied_paths: ['/ab_tests/2'] });
    expect(result.validation.valid).toBe(true);
    const draft = await ok(service, admin, 'getConfig', { params: { id: result.id } });
    expect(draft.label).toBe('Create A/B test new-test');
    expect(dataOf(draft.yaml).ab_tests?.[2]).toMatchObject({ id: 'new-test', status: 'draft' });
  });

  it('is required once create_ab_test comes with another ordinary operation', async () => {
    const response = await edit(service, admin, {
      operations: [{ create_ab_test: [TEST_ITEM] }, CREATE_APP('a')],
    });
    expect(errorPaths(expectProblem(response, 400))).toEqual(['/summary']);
  });
});

describe('400: the request shape', () => {
  it.each<[string, unknown, string[]]>([
    ['operations missing', { summary: 's' }, ['/operations']],
    ['operations empty', { operations: [], summary: 's' }, ['/operations']],
    ['operations not a list', { operations: { create_app: [] }, summary: 's' }, ['/operations']],
    ['an operation with zero action keys', { operations: [{}], summary: 's' }, ['/operations/0']],
    [
      'an operation with two action keys',
      {
        operations: [CREATE_APP('ok'), { create_app: [{ id: 'a' }], delete_app: [{ id: 'b' }] }],
        summary: 's',
      },
      ['/operations/1'],
    ],
    [
      'an unknown action key',
      { operations: [{ create_thing: [{ id: 'a' }] }], summary: 's' },
      ['/operations/0/create_thing', '/operations/0'],
    ],
    [
      'an empty item list',
      { operations: [{ create_app: [] }], summary: 's' },
      ['/operations/0/create_app'],
    ],
    [
      'an item that is not an object',
      { operations: [{ create_app: [{ id: 'a' }, 42] }], summary: 's' },
      ['/operations/0/create_app/1'],
    ],
    [
      'an app item without a string id',
      { operations: [{ update_app: [{ id: 5 }] }], summary: 's' },
      ['/operations/0/update_app/0/id'],
    ],
    [
      'a set without a JSON Pointer',
      { operations: [CREATE_APP('a'), { set: [{ path: 'apps/0', value: 1 }] }], summary: 's' },
      ['/operations/1/set/0/path'],
    ],
    [
      'an unset of the whole document',
      { operations: [{ unset: [{ path: '' }] }], summary: 's' },
      ['/operations/0/unset/0/path'],
    ],
    [
      'a promote without a variant',
      { operations: [{ promote_ab_test: [{ id: 'bigger-button' }] }] },
      ['/operations/0/promote_ab_test/0/variant'],
    ],
    [
      'lifecycle mixed with an ordinary operation',
      {
        operations: [CREATE_APP('a'), { start_ab_test: [{ id: 'onboarding' }] }],
        summary: 's',
      },
      ['/operations/0'],
    ],
    [
      'config_id that is not a string',
      { operations: [CREATE_APP('a')], config_id: 7, summary: 's' },
      ['/config_id'],
    ],
    [
      'a summary over 200 characters',
      { operations: [CREATE_APP('a')], summary: 'x'.repeat(201) },
      ['/summary'],
    ],
  ])('refuses %s, naming the JSON Pointer', async (_what, body, paths) => {
    const before = await snapshot();
    const problem = expectProblem(await edit(service, admin, body), 400, 'invalid_request');
    expect(errorPaths(problem)).toEqual(paths);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an update_ab_test that changes what it cannot (400 naming the item)', async () => {
    const problem = expectProblem(
      await edit(service, admin, {
        operations: [{ update_ab_test: [{ id: 'onboarding', app: 'checkout' }] }],
      }),
      400,
    );
    expect(errorPaths(problem)).toEqual(['/operations/0/update_ab_test/0']);
  });
});

describe('409: the operation cannot apply now', () => {
  it('refuses a taken app id, naming the operation and item, and saves nothing', async () => {
    const before = await snapshot();
    const problem = expectProblem(
      await edit(service, admin, {
        operations: [CREATE_APP('fresh'), { create_app: [{ id: 'new' }, { id: 'checkout' }] }],
        summary: 'Duplicate',
      }),
      409,
      'app.id_taken',
    );
    expect(errorPaths(problem)).toEqual(['/operations/1/create_app/1']);
    expect(problem.title).toBe('The operation cannot apply now');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an id taken by an earlier item of the same request', async () => {
    const problem = expectProblem(
      await edit(service, admin, {
        operations: [{ create_app: [{ id: 'twin' }, { id: 'twin' }] }],
        summary: 'Twins',
      }),
      409,
      'app.id_taken',
    );
    expect(errorPaths(problem)).toEqual(['/operations/0/create_app/1']);
    expect(await ok(service, admin, 'listConfigs', { query: { kind: 'draft' } })).toEqual([]);
  });

  it('refuses a taken A/B test id', async () => {
    const problem = expectProblem(
      await edit(service, admin, {
        operations: [{ create_ab_test: [{ ...TEST_ITEM, id: 'bigger-button' }] }],
      }),
      409,
      'ab_test.id_taken',
    );
    expect(errorPaths(problem)).toEqual(['/operations/0/create_ab_test/0']);
  });

  it('refuses a lifecycle step that the status does not allow', async () => {
    const before = await snapshot();
    const problem = expectProblem(
      await edit(service, admin, { operations: [{ end_ab_test: [{ id: 'onboarding' }] }] }),
      409,
      'ab_test.invalid_transition',
    );
    expect(errorPaths(problem)).toEqual(['/operations/0/end_ab_test/0']);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses deleting an app that a running test targets', async () => {
    const before = await snapshot();
    const problem = expectProblem(
      await edit(service, admin, {
        operations: [{ delete_app: [{ id: 'ios-app' }, { id: 'checkout' }] }],
        summary: 'Remove both',
      }),
      409,
      'app.in_running_test',
    );
    expect(errorPaths(problem)).toEqual(['/operations/0/delete_app/1']);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a lifecycle step whose result would be invalid, with the report, saving nothing', async () => {
    // A draft whose new test has weights summing to 90: fine as a draft, not as live.
    const draft = await editOk(service, admin, {
      operations: [
        {
          create_ab_test: [
            {
              ...TEST_ITEM,
              variants: [
                { id: 'a', weight: 40 },
                { id: 'b', weight: 50 },
              ],
            },
          ],
        },
      ],
    });
    expect(draft.validation.valid).toBe(false);
    const before = await snapshot();

    const response = await edit(service, admin, {
      operations: [{ start_ab_test: [{ id: 'new-test' }] }],
      config_id: draft.id,
    });
    const problem = expectProblem(response, 409, 'invalid_config');
    expect(problem.validation).toBeDefined();
    expect(problem.validation?.valid).toBe(false);
    expect(problem.validation?.issues.map((issue) => issue.code)).toContain('ab_test.weights_sum');
    expect(problem.validation?.source?.type).toBe('published');
    expect(await snapshot()).toEqual(before);
    expect((await ok(service, admin, 'getLiveConfig')).id).toBe(service.account.live_config_id);
  });
});

describe('422: the operation names something that does not exist', () => {
  it.each<[string, unknown, string, string]>([
    [
      'update_app of an unknown id',
      { operations: [CREATE_APP('a'), { update_app: [{ id: 'nope', name: 'x' }] }], summary: 's' },
      'app.not_found',
      '/operations/1/update_app/0',
    ],
    [
      'delete_app of an unknown id',
      { operations: [{ delete_app: [{ id: 'nope' }] }], summary: 's' },
      'app.not_found',
      '/operations/0/delete_app/0',
    ],
    [
      'unset of an absent path',
      { operations: [{ unset: [{ path: '/apps/1/settings' }] }], summary: 's' },
      'path.not_found',
      '/operations/0/unset/0',
    ],
    [
      'a lifecycle step of an unknown test',
      { operations: [{ start_ab_test: [{ id: 'nope' }] }] },
      'ab_test.not_found',
      '/operations/0/start_ab_test/0',
    ],
    [
      'a promote of an unknown variant',
      { operations: [{ promote_ab_test: [{ id: 'bigger-button', variant: 'nope' }] }] },
      'ab_test.unknown_variant',
      '/operations/0/promote_ab_test/0',
    ],
  ])('refuses %s', async (_what, body, code, path) => {
    const before = await snapshot();
    const problem = expectProblem(await edit(service, admin, body), 422, code);
    expect(errorPaths(problem)).toEqual([path]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('404: configs outside the account', () => {
  it('answers an unknown config_id and another account’s config id alike', async () => {
    const other = await service.otherAccount();
    const before = await snapshot();
    const unknown = expectProblem(
      await edit(service, admin, {
        operations: [CREATE_APP('a')],
        config_id: 'cfg_DOESNOTEXIST',
        summary: 's',
      }),
      404,
      'not_found',
    );
    const foreign = expectProblem(
      await edit(service, admin, {
        operations: [CREATE_APP('a')],
        config_id: other.account.live_config_id,
        summary: 's',
      }),
      404,
      'not_found',
    );
    expect(foreign.title).toBe(unknown.title);
    expect(foreign.detail.replace(other.account.live_config_id, 'X')).toBe(
      unknown.detail.replace('cfg_DOESNOTEXIST', 'X'),
    );
    // Lifecycle operations too.
    expectProblem(
      await edit(service, admin, {
        operations: [{ start_ab_test: [{ id: 'onboarding' }] }],
        config_id: other.account.live_config_id,
      }),
      404,
      'not_found',
    );
    expect(await snapshot()).toEqual(before);
    // The other account's config is untouched.
    const theirs = await ok(service, other.key, 'getLiveConfig');
    expect(theirs.revision).toBe(1);
    expect(await ok(service, other.key, 'listConfigs')).toHaveLength(1);
  });

  it('answers 404 for a draft that was discarded or published', async () => {
    const draft = await editOk(service, admin, { operations: [CREATE_APP('a')], summary: 's' });
    await ok(service, admin, 'deleteConfig', { params: { id: draft.id } });
    expectProblem(
      await edit(service, admin, {
        operations: [CREATE_APP('b')],
        config_id: draft.id,
        summary: 's',
      }),
      404,
    );
  });
});

describe('If-Match', () => {
  it('applies the edit when it names the current revision', async () => {
    const draft = await editOk(service, admin, { operations: [CREATE_APP('a')], summary: 's' });
    const next = await editOk(
      service,
      admin,
      { operations: [CREATE_APP('b')], config_id: draft.id, summary: 's' },
      { 'if-match': '"1"' },
    );
    expect(next.revision).toBe(2);
    expect(next.etag).toBe(etagOf(draft.id, 2));
    // The ETag itself, as the console sends it back.
    const third = await editOk(
      service,
      admin,
      { operations: [CREATE_APP('b2')], config_id: draft.id, summary: 's' },
      { 'if-match': String(next.etag) },
    );
    expect(third.revision).toBe(3);
    // Against the live config when config_id is omitted.
    const fromLive = await editOk(
      service,
      admin,
      { operations: [CREATE_APP('c')], summary: 's' },
      { 'if-match': '"1"' },
    );
    expect(fromLive.created).toBe(true);
    const live = etagOf(service.account.live_config_id, 1);
    expect(
      (
        await editOk(
          service,
          admin,
          { operations: [CREATE_APP('d')], summary: 's' },
          { 'if-match': live },
        )
      ).created,
    ).toBe(true);
  });

  it('refuses an If-Match naming another config at the same revision with 412', async () => {
    // What a bare revision cannot tell: another config went live meanwhile, also at 1.
    const draft = await editOk(service, admin, { operations: [CREATE_APP('a')], summary: 's' });
    await ok(service, admin, 'publishConfig', { params: { id: draft.id } });
    const before = await snapshot();
    expectProblem(
      await edit(
        service,
        admin,
        { operations: [CREATE_APP('c')], summary: 's' },
        { 'if-match': etagOf(service.account.live_config_id, 1) },
      ),
      412,
      'precondition_failed',
    );
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a stale revision with 412 and changes nothing', async () => {
    const draft = await editOk(service, admin, { operations: [CREATE_APP('a')], summary: 's' });
    await editOk(service, admin, {
      operations: [CREATE_APP('b')],
      config_id: draft.id,
      summary: 's',
    });
    const before = await snapshot();
    for (const etag of ['"1"', '"3"']) {
      expectProblem(
        await edit(
          service,
          admin,
          { operations: [CREATE_APP('c')], config_id: draft.id, summary: 's' },
          { 'if-match': etag },
        ),
        412,
        'precondition_failed',
      );
    }
    expectProblem(
      await edit(
        service,
        admin,
        { operations: [CREATE_APP('c')], summary: 's' },
        { 'if-match': '"2"' },
      ),
      412,
    );
    // A lifecycle step too.
    expectProblem(
      await edit(
        service,
        admin,
        { operations: [{ start_ab_test: [{ id: 'onboarding' }] }] },
        { 'if-match': '"9"' },
      ),
      412,
    );
    expect(await snapshot()).toEqual(before);
  });

  it.each(['1', 'W/"1"', '"abc"', '"0"', '*', '"1", "2"'])(
    'refuses the malformed If-Match %s with 400',
    async (value) => {
      const before = await snapshot();
      const problem = expectProblem(
        await edit(
          service,
          admin,
          { operations: [CREATE_APP('a')], summary: 's' },
          { 'if-match': value },
        ),
        400,
      );
      expect(errorPaths(problem)).toEqual(['/if-match']);
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe('the whole answer to a refused edit', () => {
  const problem = (type: string, title: string, status: number, detail: string) => ({
    type: `urn:provisioning:problem:${type}`,
    title,
    status,
    detail,
    code: type,
  });
  const refusedItem = (code: string, title: string, status: number, path: string, why: string) => ({
    ...problem(code, title, status, `${path}: ${why}`),
    errors: [{ path, message: `${path}: ${why}` }],
  });

  it('is the same status, code, title, detail and errors for every kind of refusal', async () => {
    const answers = async (body: unknown, headers?: Record<string, string>) =>
      (await edit(service, admin, body, headers)).json() as unknown;
    expect(
      await answers({ operations: [{ update_ab_test: [{ id: 'onboarding', app: 'checkout' }] }] }),
    ).toEqual(
      refusedItem(
        'operation.invalid_item',
        'The request is malformed',
        400,
        '/operations/0/update_ab_test/0',
        'update_ab_test changes only description, variants, metrics, guardrails, not app',
      ),
    );
    expect(await answers({ operations: [CREATE_APP('checkout')], summary: 's' })).toEqual(
      refusedItem(
        'app.id_taken',
        'The operation cannot apply now',
        409,
        '/operations/0/create_app/0',
        'An app with the id "checkout" already exists',
      ),
    );
    expect(await answers({ operations: [{ end_ab_test: [{ id: 'onboarding' }] }] })).toEqual(
      refusedItem(
        'ab_test.invalid_transition',
        'The operation cannot apply now',
        409,
        '/operations/0/end_ab_test/0',
        'end_ab_test is not allowed for A/B test "onboarding" while it is draft; allowed from: running',
      ),
    );
    expect(await answers({ operations: [{ delete_app: [{ id: 'nope' }] }], summary: 's' })).toEqual(
      refusedItem(
        'app.not_found',
        'The operation names something that does not exist',
        422,
        '/operations/0/delete_app/0',
        'There is no app with the id "nope"',
      ),
    );
    expect(
      await answers({ operations: [CREATE_APP('a')], config_id: 'cfg_NOPE', summary: 's' }),
    ).toEqual(
      problem('not_found', 'Not found', 404, 'The config cfg_NOPE was not found in this account'),
    );
    const live = service.account.live_config_id;
    expect(
      await answers({ operations: [CREATE_APP('a')], summary: 's' }, { 'if-match': '"7"' }),
    ).toEqual(
      problem(
        'precondition_failed',
        'The config has changed',
        412,
        `The config ${live} is at revision 1, not 7: reload it and apply the edit again`,
      ),
    );
    expect(
      await answers(
        { operations: [CREATE_APP('a')], summary: 's' },
        { 'if-match': etagOf('cfg_OTHER', 1) },
      ),
    ).toEqual(
      problem(
        'precondition_failed',
        'The config has changed',
        412,
        `The target is the config ${live}, not cfg_OTHER: reload it and apply the edit again`,
      ),
    );
  });
});

/** The text a range covers, found from its line and column alone. */
function textAt(yaml: string, range: AppliedRange): string {
  const lines = yaml.split('\n');
  const before = lines.slice(0, range.line - 1).reduce((sum, line) => sum + line.length + 1, 0);
  const start = before + range.column - 1;
  return yaml.slice(start, start + range.length);
}

/** Each applied range as `path: the text it covers`. */
function coveredTexts(result: ConfigEditResult): Record<string, string> {
  const yaml = result.validation.yaml ?? '';
  return Object.fromEntries(
    result.applied_ranges.map((range) => [range.path, textAt(yaml, range)]),
  );
}

/** The result's summary must be the one GET /configs lists right after the edit. */
async function expectListedAsSummary(result: ConfigEditResult): Promise<void> {
  const listed = await ok(service, admin, 'listConfigs');
  expect(listed.find((config) => config.id === result.id)).toEqual(result.config);
}

describe('the config summary of an edit result', () => {
  it('is the new draft an edit of the live config created, as listed', async () => {
    const result = await editOk(service, admin, {
      operations: [CREATE_APP('android-app', { platform: 'android' })],
      summary: 'Add the Android app',
    });
    expect(result.config).toMatchObject({
      id: result.id,
      kind: 'draft',
      label: 'Add the Android app',
      revision: 1,
      live: false,
      base_config_id: service.account.live_config_id,
      valid: true,
      error_count: 0,
    });
    await expectListedAsSummary(result);
  });

  it('is the edited draft at its new revision, with the counts of its report', async () => {
    const first = await editOk(service, admin, {
      operations: [CREATE_APP('a')],
      summary: 'First',
    });
    const second = await editOk(service, admin, {
      operations: [{ set: [{ path: '/apps/0/platform', value: 'toaster' }] }],
      config_id: first.id,
      summary: 'Second',
    });
    expect(second.config).toMatchObject({
      id: first.id,
      label: 'First',
      revision: 2,
      created_at: first.config.created_at,
      valid: false,
      error_count: second.validation.error_count,
    });
    expect(second.validation.error_count).toBeGreaterThan(0);
    await expectListedAsSummary(second);
  });

  it('is the new live version an A/B test lifecycle step published', async () => {
    const result = await editOk(service, admin, {
      operations: [{ start_ab_test: [{ id: 'onboarding' }] }],
    });
    expect(result.config).toMatchObject({
      id: result.id,
      kind: 'published',
      live: true,
      revision: 1,
      base_config_id: service.account.live_config_id,
    });
    expect(result.config.published_at).toBeDefined();
    await expectListedAsSummary(result);
  });
});

describe('the applied ranges of an edit result', () => {
  it('covers the value a set wrote', async () => {
    const result = await editOk(service, admin, {
      operations: [{ set: [{ path: '/apps/0/name', value: 'Checkout 2' }] }],
      summary: 'Rename',
    });
    expect(result.applied_ranges).toEqual([
      { path: '/apps/0/name', line: 4, column: 11, length: 'Checkout 2'.length },
    ]);
    expect(coveredTexts(result)).toEqual({ '/apps/0/name': 'Checkout 2' });
  });

  it('covers a created app from its first key to its last value', async () => {
    const result = await editOk(service, admin, {
      operations: [CREATE_APP('android-app', { name: 'Android', platform: 'android' })],
      summary: 'Add the Android app',
    });
    const covered = coveredTexts(result)['/apps/2'] ?? '';
    expect(covered.startsWith('id: android-app\n')).toBe(true);
    expect(covered.trimEnd().endsWith('platform: android')).toBe(true);
    expect(covered).not.toContain('ab_tests');
  });

  it('covers the fields update_app changed, in a draft edited again', async () => {
    const first = await editOk(service, admin, {
      operations: [CREATE_APP('a')],
      summary: 'First',
    });
    const result = await editOk(service, admin, {
      operations: [{ update_app: [{ id: 'ios-app', name: 'iOS', settings: { beta: true } }] }],
      config_id: first.id,
      summary: 'Rename iOS',
    });
    expect(coveredTexts(result)).toEqual({
      '/apps/1/name': 'iOS',
      '/apps/1/settings/beta': 'true',
    });
  });

  it('leaves out the index of a deleted app, where the next app now sits', async () => {
    const draft = await editOk(service, admin, {
      operations: [CREATE_APP('web-2', { name: 'Web' })],
      summary: 'Add web-2',
    });
    const result = await editOk(service, admin, {
      operations: [{ delete_app: [{ id: 'ios-app' }] }],
      config_id: draft.id,
      summary: 'Drop iOS',
    });
    // web-2 now sits at /apps/1, untouched by this edit.
    expect(result.applied_paths).toEqual(['/apps/1']);
    expect(result.applied_ranges).toEqual([]);

    const swapped = await editOk(service, admin, {
      operations: [CREATE_APP('web-2', { name: 'Web' }), { delete_app: [{ id: 'ios-app' }] }],
      summary: 'Swap',
    });
    // /apps/2 names nothing now; /apps/1 was ios-app's place and holds web-2, made by the edit.
    expect(swapped.applied_paths).toEqual(['/apps/2', '/apps/1']);
    expect(swapped.applied_ranges.map((range) => range.path)).toEqual(['/apps/1']);
    expect(coveredTexts(swapped)['/apps/1']?.startsWith('id: web-2\n')).toBe(true);
  });

  it('leaves out what unset removed', async () => {
    const result = await editOk(service, admin, {
      operations: [
        { unset: [{ path: '/apps/0/settings/theme' }] },
        { set: [{ path: '/apps/0/settings/button_size', value: 'small' }] },
      ],
      summary: 'Drop the theme',
    });
    expect(result.applied_paths).toEqual([
      '/apps/0/settings/theme',
      '/apps/0/settings/button_size',
    ]);
    expect(coveredTexts(result)).toEqual({ '/apps/0/settings/button_size': 'small' });

    // An unset list item: the next item now sits at its index, untouched.
    const withoutTest = await editOk(service, admin, {
      operations: [{ unset: [{ path: '/ab_tests/0' }] }],
      config_id: result.id,
      summary: 'Drop the first test',
    });
    expect(withoutTest.applied_paths).toEqual(['/ab_tests/0']);
    expect(withoutTest.applied_ranges).toEqual([]);
  });

  it('covers what an A/B test lifecycle step wrote', async () => {
    const result = await editOk(service, admin, {
      operations: [{ start_ab_test: [{ id: 'onboarding' }] }],
    });
    const covered = coveredTexts(result);
    expect(covered['/ab_tests/1/status']).toBe('running');
    expect(Object.keys(covered)).toEqual(result.applied_paths);
  });

  it('leaves out the index of a deleted A/B test, where the next test now sits', async () => {
    const ended = await editOk(service, admin, {
      operations: [{ end_ab_test: [{ id: 'bigger-button' }] }],
    });
    const result = await editOk(service, admin, {
      operations: [{ delete_ab_test: [{ id: 'bigger-button' }] }],
      config_id: ended.id,
    });
    expect(result.applied_paths).toEqual(['/ab_tests/0']);
    expect(result.applied_ranges).toEqual([]);
  });
});
