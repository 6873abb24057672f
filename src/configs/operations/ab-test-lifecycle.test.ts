/**
 * A/B test actions: create_ab_test, the lifecycle steps and their table of
 * allowed statuses, and their refusals.
 */
import { describe, expect, it } from 'vitest';
import { AB_TEST_STATUSES, type AbTestStatus } from '../../contract/config-document';
import { LIFECYCLE_ACTIONS, type LifecycleAction } from '../../contract/operations';
import { LIFECYCLE_TRANSITIONS } from '../../contract/operations';
import { applied, NOW, refused } from '../testing/apply-helpers';

const STARTED = '2026-11-01T08:00:00.000Z';
const ENDED = '2026-11-15T08:00:00.000Z';

const APPS = `apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      theme: dark # dark or light
      button_size: small
  - id: search
    name: Search
    platform: ios
`;

/** A config whose one test, `bigger-button` on `checkout`, has the given status. */
function withTest(status: string, options: { app?: string } = {}): string {
  const lifecycle = {
    draft: '',
    running: `    started_at: ${STARTED}\n`,
    ended: `    started_at: ${STARTED}\n    ended_at: ${ENDED}\n`,
    promoted: `    winner: big\n    started_at: ${STARTED}\n    ended_at: ${ENDED}\n`,
  }[status as AbTestStatus];
  return `${APPS}ab_tests:
  # The first experiment.
  - id: bigger-button
    app: ${options.app ?? 'checkout'}
    description: Try it
    status: ${status} # set by lifecycle operations
    variants:
      - id: control
        weight: 50
        settings: {}
      - id: big
        weight: 50
        settings:
          button_size: large
          font: bold
${lifecycle ?? ''}`;
}

interface Config {
  apps: Record<string, unknown>[];
  ab_tests: Record<string, unknown>[];
}

const VARIANTS = [
  { id: 'a', weight: 50 },
  { id: 'b', weight: 50, settings: { theme: 'light' } },
];

describe('create_ab_test', () => {
  it('appends a draft test with keys in the usual order, written as given', () => {
    const { data, text, paths } = applied<Config>(withTest('running'), [
      {
        create_ab_test: [
          {
            variants: VARIANTS,
            status: 'running',
            extra: 'kept',
            description: 'Light theme',
            app: 'search',
            id: 'light',
          },
        ],
      },
    ]);
    expect(paths).toEqual(['/ab_tests/1']);
    const test = data.ab_tests[1] ?? {};
    expect(test).toEqual({
      id: 'light',
      app: 'search',
      description: 'Light theme',
      status: 'draft',
      variants: VARIANTS,
      extra: 'kept',
    });
    expect(Object.keys(test)).toEqual(['id', 'app', 'description', 'status', 'variants', 'extra']);
    expect(text.startsWith(withTest('running'))).toBe(true);
  });

  it('leaves out a description that is not given', () => {
    const { data } = applied<Config>(withTest('draft'), [
      { create_ab_test: [{ id: 'plain', app: 'checkout', variants: VARIANTS }] },
    ]);
    expect(Object.keys(data.ab_tests[1] ?? {})).toEqual(['id', 'app', 'status', 'variants']);
  });

  it('lands bad values for validation to judge', () => {
    const { data } = applied<Config>(APPS, [
      {
        create_ab_test: [{ id: 'odd', app: 'nowhere', variants: [{ id: 'only', weight: 7 }] }],
      },
    ]);
    expect(data.ab_tests).toEqual([
      { id: 'odd', app: 'nowhere', status: 'draft', variants: [{ id: 'only', weight: 7 }] },
    ]);
  });

  it('creates the ab_tests list, and writes into `ab_tests: []` in block style', () => {
    const created = applied<Config>(APPS, [
      { create_ab_test: [{ id: 't', app: 'checkout', variants: [] }] },
    ]);
    expect(created.paths).toEqual(['/ab_tests/0']);
    expect(created.text).toBe(
      `${APPS}ab_tests:\n  - id: t\n    app: checkout\n    status: draft\n    variants: []\n`,
    );

    const flow = applied<Config>(`${APPS}ab_tests: []\n`, [
      { create_ab_test: [{ id: 't', app: 'checkout', variants: [] }] },
    ]);
    expect(flow.text).toBe(created.text);
  });

  it('refuses an id that is taken (409 ab_test.id_taken)', () => {
    const refusal = refused(withTest('ended'), [
      { create_app: [{ id: 'x', name: 'X', platform: 'web' }] },
      {
        create_ab_test: [
          { id: 'fine', app: 'x', variants: VARIANTS },
          { id: 'bigger-button', app: 'x', variants: VARIANTS },
        ],
      },
    ]);
    expect(refusal).toMatchObject({
      kind: 'conflict',
      code: 'ab_test.id_taken',
      operationIndex: 1,
      itemIndex: 1,
      action: 'create_ab_test',
      requestPath: '/operations/1/create_ab_test/1',
    });
    expect(refusal.message).toMatch(/^\/operations\/1\/create_ab_test\/1: .*"bigger-button"/);
  });

  it('refuses an item without a string id (400)', () => {
    expect(
      refused(APPS, [{ create_ab_test: [{ app: 'checkout', variants: VARIANTS }] }]),
    ).toMatchObject({ kind: 'invalid_operation', code: 'operation.invalid_item' });
  });
});

describe('update_ab_test', () => {
  it('changes the description and the variants of a draft', () => {
    const { data, text, paths } = applied<Config>(withTest('draft'), [
      { update_ab_test: [{ id: 'bigger-button', description: 'Bigger', variants: VARIANTS }] },
    ]);
    expect(paths).toEqual(['/ab_tests/0/description', '/ab_tests/0/variants']);
    expect(data.ab_tests[0]).toMatchObject({
      description: 'Bigger',
      status: 'draft',
      variants: VARIANTS,
    });
    expect(text).toContain('  # The first experiment.\n');
    expect(text).toContain('    status: draft # set by lifecycle operations\n');
  });

  it('removes the description when given null', () => {
    const { data, paths } = applied<Config>(withTest('draft'), [
      { update_ab_test: [{ id: 'bigger-button', description: null }] },
    ]);
    expect(paths).toEqual(['/ab_tests/0/description']);
    expect(data.ab_tests[0]).not.toHaveProperty('description');
  });

  it('changes the description of a running test', () => {
    const { data, paths } = applied<Config>(withTest('running'), [
      { update_ab_test: [{ id: 'bigger-button', description: 'Still running' }] },
    ]);
    expect(paths).toEqual(['/ab_tests/0/description']);
    expect(data.ab_tests[0]).toMatchObject({ description: 'Still running', status: 'running' });
  });

  it('changes the metrics of a running test, and removes its guardrails with null', () => {
    const measured = withTest('running').replace(
      '    status: running',
      '    status: running\n    guardrails: [errors]',
    );
    const { data, paths } = applied<Config>(measured, [
      {
        update_ab_test: [
          { id: 'bigger-button', metrics: ['checkout-rate', 'revenue'], guardrails: null },
        ],
      },
    ]);
    expect(paths).toEqual(['/ab_tests/0/metrics', '/ab_tests/0/guardrails']);
    expect(data.ab_tests[0]).toMatchObject({ metrics: ['checkout-rate', 'revenue'] });
    expect(data.ab_tests[0]).not.toHaveProperty('guardrails');
  });

  it('refuses new variants for a running test (409 ab_test.invalid_transition)', () => {
    const refusal = refused(withTest('running'), [
      { update_ab_test: [{ id: 'bigger-button', description: 'ok' }] },
      { update_ab_test: [{ id: 'bigger-button', variants: VARIANTS }] },
    ]);
    expect(refusal).toMatchObject({
      kind: 'not_allowed_in_state',
      code: 'ab_test.invalid_transition',
      operationIndex: 1,
      itemIndex: 0,
      requestPath: '/operations/1/update_ab_test/0',
    });
    expect(refusal.message).toContain('running');
  });

  it.each(['draft', 'running'])(
    'refuses a field other than description and variants on a %s test (400)',
    (status) => {
      const refusal = refused(withTest(status), [
        { update_ab_test: [{ id: 'bigger-button', status: 'ended' }] },
      ]);
      expect(refusal).toMatchObject({
        kind: 'invalid_operation',
        code: 'operation.invalid_item',
        requestPath: '/operations/0/update_ab_test/0',
      });
      expect(refusal.message).toContain('status');
    },
  );
});

describe('start_ab_test', () => {
  it('sets status running and started_at to now', () => {
    const { data, text, paths } = applied<Config>(withTest('draft'), [
      { start_ab_test: [{ id: 'bigger-button' }] },
    ]);
    expect(paths).toEqual(['/ab_tests/0/status', '/ab_tests/0/started_at']);
    expect(data.ab_tests[0]).toMatchObject({ status: 'running', started_at: NOW.toISOString() });
    expect(text).toBe(
      `${withTest('draft').replace('status: draft #', 'status: running #')}    started_at: 2026-11-22T10:00:00.000Z\n`,
    );
  });
});

describe('end_ab_test', () => {
  it('sets status ended and ended_at to now', () => {
    const { data, paths } = applied<Config>(withTest('running'), [
      { end_ab_test: [{ id: 'bigger-button' }] },
    ]);
    expect(paths).toEqual(['/ab_tests/0/status', '/ab_tests/0/ended_at']);
    expect(data.ab_tests[0]).toMatchObject({
      status: 'ended',
      started_at: STARTED,
      ended_at: NOW.toISOString(),
    });
  });
});

describe('promote_ab_test', () => {
  it("copies the winner's settings into its app and sets winner, status and ended_at", () => {
    const { data, text, paths } = applied<Config>(withTest('running'), [
      { promote_ab_test: [{ id: 'bigger-button', variant: 'big' }] },
    ]);
    expect(paths).toEqual([
      '/apps/0/settings/button_size',
      '/apps/0/settings/font',
      '/ab_tests/0/status',
      '/ab_tests/0/winner',
      '/ab_tests/0/ended_at',
    ]);
    expect(data.apps[0]?.settings).toEqual({ theme: 'dark', button_size: 'large', font: 'bold' });
    expect(data.ab_tests[0]).toMatchObject({
      status: 'promoted',
      winner: 'big',
      started_at: STARTED,
      ended_at: NOW.toISOString(),
    });
    // The variant keeps its own settings; the app's other settings and comments stay.
    expect(data.ab_tests[0]?.variants).toEqual([
      { id: 'control', weight: 50, settings: {} },
      { id: 'big', weight: 50, settings: { button_size: 'large', font: 'bold' } },
    ]);
    expect(text).toContain('      theme: dark # dark or light\n      button_size: large\n');
  });

  it('keeps the ended_at of an ended test', () => {
    const { data, paths } = applied<Config>(withTest('ended'), [
      { promote_ab_test: [{ id: 'bigger-button', variant: 'big' }] },
    ]);
    expect(paths).not.toContain('/ab_tests/0/ended_at');
    expect(data.ab_tests[0]).toMatchObject({ status: 'promoted', winner: 'big', ended_at: ENDED });
  });

  it('creates the settings of an app that has none', () => {
    const { data, paths } = applied<Config>(withTest('running', { app: 'search' }), [
      { promote_ab_test: [{ id: 'bigger-button', variant: 'big' }] },
    ]);
    expect(paths.slice(0, 2)).toEqual(['/apps/1/settings/button_size', '/apps/1/settings/font']);
    expect(data.apps[1]).toEqual({
      id: 'search',
      name: 'Search',
      platform: 'ios',
      settings: { button_size: 'large', font: 'bold' },
    });
  });

  it('leaves the app alone when the winner overrides nothing', () => {
    const { data, paths } = applied<Config>(withTest('running'), [
      { promote_ab_test: [{ id: 'bigger-button', variant: 'control' }] },
    ]);
    expect(paths).toEqual(['/ab_tests/0/status', '/ab_tests/0/winner', '/ab_tests/0/ended_at']);
    expect(data.apps[0]?.settings).toEqual({ theme: 'dark', button_size: 'small' });
    expect(data.ab_tests[0]).toMatchObject({ winner: 'control', status: 'promoted' });
  });

  it('refuses a variant the test does not have (422 ab_test.unknown_variant)', () => {
    const refusal = refused(withTest('running'), [
      { promote_ab_test: [{ id: 'bigger-button', variant: 'huge' }] },
    ]);
    expect(refusal).toMatchObject({
      kind: 'not_found',
      code: 'ab_test.unknown_variant',
      operationIndex: 0,
      itemIndex: 0,
      requestPath: '/operations/0/promote_ab_test/0',
    });
    expect(refusal.message).toContain('"huge"');
  });

  it('refuses an item without a variant (400)', () => {
    expect(
      refused(withTest('ended'), [{ promote_ab_test: [{ id: 'bigger-button' }] }]),
    ).toMatchObject({ kind: 'invalid_operation', code: 'operation.invalid_item' });
  });

  it("refuses when the test's app does not exist (422 app.not_found)", () => {
    expect(
      refused(withTest('running', { app: 'gone' }), [
        { promote_ab_test: [{ id: 'bigger-button', variant: 'big' }] },
      ]),
    ).toMatchObject({ kind: 'not_found', code: 'app.not_found' });
  });
});

describe('delete_ab_test', () => {
  it('removes the test', () => {
    const { data, text, paths } = applied<Config>(withTest('ended'), [
      { delete_ab_test: [{ id: 'bigger-button' }] },
    ]);
    expect(paths).toEqual(['/ab_tests/0']);
    expect(data.ab_tests).toEqual([]);
    expect(text.startsWith(APPS)).toBe(true);
  });
});

describe('every lifecycle action', () => {
  it.each(LIFECYCLE_ACTIONS.map((action) => [action]))(
    '%s refuses an unknown test id (422 ab_test.not_found)',
    (action) => {
      const refusal = refused(withTest('running'), [
        { [action]: [{ id: 'no-such-test', variant: 'big' }] },
      ]);
      expect(refusal).toMatchObject({
        kind: 'not_found',
        code: 'ab_test.not_found',
        operationIndex: 0,
        itemIndex: 0,
        action,
        requestPath: `/operations/0/${action}/0`,
      });
      expect(refusal.message).toContain('"no-such-test"');
    },
  );

  it.each(LIFECYCLE_ACTIONS.map((action) => [action]))(
    '%s refuses an item without a string id (400)',
    (action) => {
      expect(refused(withTest('running'), [{ [action]: [{ variant: 'big' }] }])).toMatchObject({
        kind: 'invalid_operation',
        code: 'operation.invalid_item',
      });
    },
  );
});

describe('the lifecycle transitions table', () => {
  /** The documented table, written out independently of the applier's own. */
  const SPEC: Record<LifecycleAction, readonly AbTestStatus[]> = {
    update_ab_test: ['draft', 'running'],
    start_ab_test: ['draft'],
    end_ab_test: ['running'],
    promote_ab_test: ['running', 'ended'],
    delete_ab_test: ['draft', 'ended', 'promoted'],
  };

  it('is the documented table and covers every lifecycle action', () => {
    expect(LIFECYCLE_TRANSITIONS).toEqual(SPEC);
    expect(Object.keys(LIFECYCLE_TRANSITIONS).sort()).toEqual([...LIFECYCLE_ACTIONS].sort());
  });

  const ITEMS: Record<LifecycleAction, Record<string, unknown>> = {
    update_ab_test: { id: 'bigger-button', description: 'Changed' },
    start_ab_test: { id: 'bigger-button' },
    end_ab_test: { id: 'bigger-button' },
    promote_ab_test: { id: 'bigger-button', variant: 'big' },
    delete_ab_test: { id: 'bigger-button' },
  };

  /** What the test looks like after an allowed step (undefined: it is gone). */
  const AFTER: Record<
    LifecycleAction,
    (status: AbTestStatus) => Record<string, unknown> | undefined
  > = {
    update_ab_test: (status) => ({ status, description: 'Changed' }),
    start_ab_test: () => ({ status: 'running', started_at: NOW.toISOString() }),
    end_ab_test: () => ({ status: 'ended', ended_at: NOW.toISOString() }),
    promote_ab_test: () => ({ status: 'promoted', winner: 'big' }),
    delete_ab_test: () => undefined,
  };

  const cases = LIFECYCLE_ACTIONS.flatMap((action) =>
    AB_TEST_STATUSES.map((status) => ({
      action,
      status,
      allowed: SPEC[action].includes(status),
    })),
  );

  it('has a case for every action and status', () => {
    expect(cases).toHaveLength(LIFECYCLE_ACTIONS.length * AB_TEST_STATUSES.length);
    expect(cases.filter((c) => c.allowed)).toHaveLength(9);
  });

  it.each(cases)('$action from $status: allowed $allowed', ({ action, status, allowed }) => {
    const source = withTest(status);
    const operations = [{ [action]: [ITEMS[action]] }];
    if (allowed) {
      const { data } = applied<Config>(source, operations);
      const expected = AFTER[action](status);
      if (expected === undefined) expect(data.ab_tests).toEqual([]);
      else expect(data.ab_tests[0]).toMatchObject({ id: 'bigger-button', ...expected });
    } else {
      const refusal = refused(source, [
        { create_app: [{ id: 'first', name: 'First', platform: 'web' }] },
        ...operations,
      ]);
      expect(refusal).toMatchObject({
        kind: 'not_allowed_in_state',
        code: 'ab_test.invalid_transition',
        operationIndex: 1,
        itemIndex: 0,
        action,
        requestPath: `/operations/1/${action}/0`,
      });
      expect(refusal.message).toContain(action);
      expect(refusal.message).toContain(status);
      expect(refusal.message).toContain('"bigger-button"');
    }
  });

  it.each(LIFECYCLE_ACTIONS.map((action) => [action]))(
    '%s refuses a test without a known status (409)',
    (action) => {
      expect(refused(withTest('paused'), [{ [action]: [ITEMS[action]] }])).toMatchObject({
        kind: 'not_allowed_in_state',
        code: 'ab_test.invalid_transition',
      });
    },
  );

  it('runs a whole lifecycle in order within one request', () => {
    const { data, paths } = applied<Config>(APPS, [
      { create_ab_test: [{ id: 't', app: 'search', variants: VARIANTS }] },
      { update_ab_test: [{ id: 't', description: 'Light wins?' }] },
      { start_ab_test: [{ id: 't' }] },
      { end_ab_test: [{ id: 't' }] },
      { promote_ab_test: [{ id: 't', variant: 'b' }] },
    ]);
    expect(paths).toEqual([
      '/ab_tests/0',
      '/ab_tests/0/description',
      '/ab_tests/0/status',
      '/ab_tests/0/started_at',
      '/ab_tests/0/ended_at',
      '/apps/1/settings/theme',
      '/ab_tests/0/winner',
    ]);
    expect(data.apps[1]?.settings).toEqual({ theme: 'light' });
    expect(data.ab_tests[0]).toMatchObject({
      status: 'promoted',
      winner: 'b',
      started_at: NOW.toISOString(),
      ended_at: NOW.toISOString(),
    });
  });
});
