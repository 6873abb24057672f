/**
 * The A/B test lifecycle through HTTP (docs/config.md): each step publishes its result, which
 * becomes live; refused steps answer 409 ab_test.invalid_transition and change nothing; the
 * live config is valid after any sequence the server accepts.
 */
import { etagOf } from '../../contract/configs';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LifecycleAction } from '../../contract/operations';
import {
  dataOf,
  edit,
  editOk,
  expectConforming,
  expectProblem,
  expectSuccess,
  manualClock,
  ok,
  send,
  SHOP_YAML,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

const APP_ONLY = `apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      theme: light
      button_size: medium
ab_tests: []
`;

let clock: ReturnType<typeof manualClock>;
let service: TestService;
let admin: string;

afterEach(async () => {
  await service.close();
});

async function liveConfig() {
  const live = await ok(service, admin, 'getLiveConfig');
  expect(live.live).toBe(true);
  expect(live.kind).toBe('published');
  expect(live.validation.valid).toBe(true);
  return live;
}

function testOf(yaml: string, id: string) {
  return dataOf(yaml).ab_tests?.find((test) => test.id === id);
}

describe('a test from draft to deletion', () => {
  beforeEach(async () => {
    clock = manualClock('2026-11-22T10:00:00.000Z');
    service = await startTestService({ clock: clock.clock, initialYaml: APP_ONLY });
    admin = service.adminKey;
  });

  it('creates, starts (publishing the draft), ends, promotes and deletes', async () => {
    // Create the test in a draft: no summary needed.
    const draft = await editOk(service, admin, {
      operations: [
        {
          create_ab_test: [
            {
              id: 'bigger-button',
              app: 'checkout',
              description: 'Does a bigger button sell more?',
              variants: [
                { id: 'control', weight: 50 },
                { id: 'big', weight: 50, settings: { button_size: 'large', theme: 'dark' } },
              ],
            },
          ],
        },
      ],
    });
    expect(draft.kind).toBe('draft');
    expect(testOf(draft.validation.yaml ?? '', 'bigger-button')?.status).toBe('draft');

    // Start it in the draft: the draft's content is published and goes live.
    clock.set('2026-11-23T08:00:00.000Z');
    const started = await editOk(service, admin, {
      operations: [{ start_ab_test: [{ id: 'bigger-button' }] }],
      config_id: draft.id,
    });
    expect(started).toMatchObject({
      kind: 'published',
      created: true,
      base_config_id: draft.id,
      revision: 1,
      applied_paths: ['/ab_tests/0/status', '/ab_tests/0/started_at'],
    });
    expect(started.etag).toBe(etagOf(started.id, 1));
    expect(started.validation).toMatchObject({
      valid: true,
      source: { type: 'published', name: 'Start A/B test bigger-button' },
    });
    let live = await liveConfig();
    expect(live.id).toBe(started.id);
    expect(live.label).toBe('Start A/B test bigger-button');
    expect(live.base_config_id).toBe(draft.id);
    expect(live.published_at).toBe('2026-11-23T08:00:00.000Z');
    expect(testOf(live.yaml, 'bigger-button')).toMatchObject({
      status: 'running',
      started_at: '2026-11-23T08:00:00.000Z',
    });
    // The draft was consumed.
    const configs = await ok(service, admin, 'listConfigs');
    expect(configs.map((config) => config.id)).not.toContain(draft.id);
    expect(configs.filter((config) => config.live).map((config) => config.id)).toEqual([
      started.id,
    ]);
    expectProblem(
      await send(service, admin, 'getConfig', { params: { id: draft.id } }),
      404,
      'not_found',
    );
    expect(await ok(service, admin, 'listConfigs', { query: { kind: 'draft' } })).toEqual([]);

    // A running test's description can change; with a summary, that labels the version.
    const described = await editOk(service, admin, {
      operations: [{ update_ab_test: [{ id: 'bigger-button', description: 'Bigger sells?' }] }],
      summary: 'Reword the test',
    });
    expect(described.base_config_id).toBe(started.id);
    live = await liveConfig();
    expect(live.label).toBe('Reword the test');
    expect(testOf(live.yaml, 'bigger-button')?.description).toBe('Bigger sells?');

    // End it (config_id omitted: the live config).
    clock.set('2026-11-30T08:00:00.000Z');
    const ended = await editOk(service, admin, {
      operations: [{ end_ab_test: [{ id: 'bigger-button' }] }],
    });
    expect(ended).toMatchObject({ kind: 'published', created: true, base_config_id: live.id });
    live = await liveConfig();
    expect(live.label).toBe('End A/B test bigger-button');
    expect(testOf(live.yaml, 'bigger-button')).toMatchObject({
      status: 'ended',
      ended_at: '2026-11-30T08:00:00.000Z',
    });

    // Promote: the winner's settings become the app's.
    clock.set('2026-12-01T08:00:00.000Z');
    await editOk(service, admin, {
      operations: [{ promote_ab_test: [{ id: 'bigger-button', variant: 'big' }] }],
    });
    live = await liveConfig();
    expect(live.label).toBe('Promote A/B test bigger-button');
    expect(dataOf(live.yaml).apps?.[0]?.settings).toEqual({ theme: 'dark', button_size: 'large' });
    expect(testOf(live.yaml, 'bigger-button')).toMatchObject({
      status: 'promoted',
      winner: 'big',
      // Already ended: ended_at is kept.
      ended_at: '2026-11-30T08:00:00.000Z',
    });

    // Delete it.
    await editOk(service, admin, { operations: [{ delete_ab_test: [{ id: 'bigger-button' }] }] });
    live = await liveConfig();
    expect(live.label).toBe('Delete A/B test bigger-button');
    expect(dataOf(live.yaml).ab_tests ?? []).toEqual([]);
    expect(dataOf(live.yaml).apps?.[0]?.settings).toEqual({ theme: 'dark', button_size: 'large' });

    // Every step is a published version, newest first, one of them live.
    const published = await ok(service, admin, 'listConfigs', { query: { kind: 'published' } });
    expect(published.map((config) => config.label)).toEqual([
      'Delete A/B test bigger-button',
      'Promote A/B test bigger-button',
      'End A/B test bigger-button',
      'Reword the test',
      'Start A/B test bigger-button',
      'Initial config',
    ]);
    expect(published.map((config) => config.live)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);

    // The history of the live config goes back through the draft to the first config.
    const history = await ok(service, admin, 'getConfigHistory', { params: { id: live.id } });
    expect(history.map((entry) => [entry.action, entry.summary])).toEqual([
      ['lifecycle', 'Delete A/B test bigger-button'],
      ['lifecycle', 'Promote A/B test bigger-button'],
      ['lifecycle', 'End A/B test bigger-button'],
      ['lifecycle', 'Reword the test'],
      ['lifecycle', 'Start A/B test bigger-button'],
      ['edit', undefined],
      ['create', 'Initial config'],
    ]);
  });

  it('promotes a running test, setting ended_at', async () => {
    service = await restartWith(SHOP_YAML);
    clock.set('2026-12-02T08:00:00.000Z');
    const result = await editOk(service, admin, {
      operations: [{ promote_ab_test: [{ id: 'bigger-button', variant: 'control' }] }],
      summary: 'Keep the control',
    });
    expect(result.applied_paths).toEqual([
      '/ab_tests/0/status',
      '/ab_tests/0/winner',
      '/ab_tests/0/ended_at',
    ]);
    const live = await liveConfig();
    expect(live.label).toBe('Keep the control');
    expect(testOf(live.yaml, 'bigger-button')).toMatchObject({
      status: 'promoted',
      winner: 'control',
      ended_at: '2026-12-02T08:00:00.000Z',
    });
    // The control overrides nothing: the app's settings stay.
    expect(dataOf(live.yaml).apps?.[0]?.settings).toEqual({
      theme: 'light',
      button_size: 'medium',
    });
  });

  it('labels a request of several lifecycle steps after each of them', async () => {
    service = await restartWith(SHOP_YAML);
    await editOk(service, admin, {
      operations: [
        { end_ab_test: [{ id: 'bigger-button' }] },
        { start_ab_test: [{ id: 'onboarding' }] },
      ],
    });
    const live = await liveConfig();
    expect(live.label).toBe('End A/B test bigger-button; Start A/B test onboarding');
  });
});

async function restartWith(yaml: string): Promise<TestService> {
  await service.close();
  const next = await startTestService({ clock: clock.clock, initialYaml: yaml });
  admin = next.adminKey;
  return next;
}

/** One test in every status, all on enabled apps: a valid live config. */
const ALL_STATUSES_YAML = `apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      button_size: medium
ab_tests:
${['draft', 'running', 'ended', 'promoted']
  .map(
    (status) => `  - id: t-${status}
    app: checkout
    status: ${status}
    variants:
      - id: a
        weight: 50
      - id: b
        weight: 50
        settings:
          button_size: large
${status === 'promoted' ? '    winner: b\n' : ''}${status !== 'draft' ? '    started_at: 2026-11-01T09:00:00.000Z\n' : ''}${status === 'ended' || status === 'promoted' ? '    ended_at: 2026-11-02T09:00:00.000Z\n' : ''}`,
  )
  .join('')}`;

type Status = 'draft' | 'running' | 'ended' | 'promoted';

const ALLOWED: Record<LifecycleAction, readonly Status[]> = {
  update_ab_test: ['draft', 'running'],
  start_ab_test: ['draft'],
  end_ab_test: ['running'],
  promote_ab_test: ['running', 'ended'],
  delete_ab_test: ['draft', 'ended', 'promoted'],
};

function itemFor(action: LifecycleAction, id: string): Record<string, unknown> {
  if (action === 'promote_ab_test') return { id, variant: 'b' };
  if (action === 'update_ab_test') return { id, description: 'Changed' };
  return { id };
}

describe('the transition table', () => {
  beforeEach(async () => {
    clock = manualClock();
    service = await startTestService({ clock: clock.clock, initialYaml: ALL_STATUSES_YAML });
    admin = service.adminKey;
  });

  const cases = (Object.keys(ALLOWED) as LifecycleAction[]).flatMap((action) =>
    (['draft', 'running', 'ended', 'promoted'] as const).map(
      (status) => [action, status, ALLOWED[action].includes(status)] as const,
    ),
  );

  it.each(cases)('%s from %s: allowed %s', async (action, status, allowed) => {
    const before = await liveConfig();
    expect(before.id).toBe(service.account.live_config_id);
    const response = await edit(service, admin, {
      operations: [{ [action]: [itemFor(action, `t-${status}`)] }],
    });
    if (allowed) {
      const result = expectSuccess('editConfig', response);
      expect(result).toMatchObject({ kind: 'published', created: true });
      const live = await liveConfig();
      expect(live.id).toBe(result.id);
    } else {
      const problem = expectProblem(response, 409, 'ab_test.invalid_transition');
      expect(problem.errors?.map((error) => error.path)).toEqual([`/operations/0/${action}/0`]);
      const live = await liveConfig();
      expect(live.id).toBe(before.id);
      expect(live.yaml).toBe(before.yaml);
      expect(await ok(service, admin, 'listConfigs')).toHaveLength(1);
    }
  });

  it('refuses new variants for a running test (only its description may change)', async () => {
    const problem = expectProblem(
      await edit(service, admin, {
        operations: [
          {
            update_ab_test: [
              {
                id: 't-running',
                variants: [
                  { id: 'a', weight: 10 },
                  { id: 'b', weight: 90 },
                ],
              },
            ],
          },
        ],
      }),
      409,
      'ab_test.invalid_transition',
    );
    expect(problem.errors?.[0]?.path).toBe('/operations/0/update_ab_test/0');
    expect((await liveConfig()).id).toBe(service.account.live_config_id);
  });

  it('changes the variants of a draft test', async () => {
    await editOk(service, admin, {
      operations: [
        {
          update_ab_test: [
            {
              id: 't-draft',
              variants: [
                { id: 'a', weight: 10 },
                { id: 'b', weight: 90 },
              ],
            },
          ],
        },
      ],
    });
    const live = await liveConfig();
    expect(live.label).toBe('Update A/B test t-draft');
    expect(testOf(live.yaml, 't-draft')?.variants).toEqual([
      { id: 'a', weight: 10 },
      { id: 'b', weight: 90 },
    ]);
  });
});

describe('the live config stays valid', () => {
  it('after any sequence of lifecycle steps that the server accepts', async () => {
    const actions = Object.keys(ALLOWED) as LifecycleAction[];
    const tests = ['t-draft', 't-running', 't-ended', 't-promoted', 'nope'];
    const step = fc.record({
      action: fc.constantFrom(...actions),
      test: fc.constantFrom(...tests),
      variant: fc.constantFrom('a', 'b', 'c'),
      weights: fc.constantFrom([50, 50], [30, 70], [40, 50]),
      summary: fc.option(fc.constantFrom('Step', '  '), { nil: undefined }),
    });
    clock = manualClock();
    service = await startTestService({ clock: clock.clock, initialYaml: ALL_STATUSES_YAML });
    admin = service.adminKey;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const { action, test, variant, weights, summary } of steps) {
          const item: Record<string, unknown> = { id: test };
          if (action === 'promote_ab_test') item.variant = variant;
          if (action === 'update_ab_test')
            item.variants = [
              { id: 'a', weight: weights[0] },
              { id: 'b', weight: weights[1] },
            ];
          const before = await ok(service, admin, 'getLiveConfig');
          const response = await edit(service, admin, {
            operations: [{ [action]: [item] }],
            ...(summary !== undefined ? { summary } : {}),
          });
          expect([200, 409, 422]).toContain(expectConforming('editConfig', response));
          const live = await ok(service, admin, 'getLiveConfig');
          expect(live.validation.valid).toBe(true);
          if (response.statusCode === 200) {
            expect(live.id).toBe(expectSuccess('editConfig', response).id);
          } else {
            expect(live.id).toBe(before.id);
          }
        }
        // Back to the starting point for the next run.
        await ok(service, admin, 'activateConfig', {
          params: { id: service.account.live_config_id },
        });
      }),
      { numRuns: 30, seed: 20261122 },
    );
  });
});
