import { describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { applied } from '../testing/apply-helpers';
import { promotionPreviewSchema } from '../../contract/promotions';
import { planPromotion } from './promotion';

type Data = Record<string, unknown>;

const checkout = {
  id: 'checkout',
  name: 'Checkout',
  platform: 'web',
  enabled: true,
  settings: { theme: 'dark', max_items: 20 },
};
const search = { id: 'search', name: 'Search', platform: 'ios' };

const test = (status: string, extra: Data = {}): Data => ({
  id: 'big-button',
  app: 'checkout',
  description: 'Try it',
  status,
  variants: [
    { id: 'control', weight: 50, settings: {} },
    { id: 'big', weight: 50, settings: { theme: 'light' } },
  ],
  ...extra,
});

/** The target's data after the plan's operations, applied as a draft edit would. */
function promoted(target: Data, plan: ReturnType<typeof planPromotion>): Data {
  const text = stringify(target);
  return applied<Data>(text, JSON.parse(JSON.stringify(plan.operations)) as unknown[]).data;
}

const read = (config: Data): Data => parseDocument(stringify(config)).toJS() as Data;

describe('planPromotion', () => {
  it('creates an app the target lacks, whole', () => {
    const source = { apps: [checkout, search] };
    const target = { apps: [checkout] };
    const plan = planPromotion(source, target);
    expect(plan.operations).toEqual([{ create_app: [search] }]);
    expect(plan.differences).toEqual([
      { item: { app: 'search' }, path: '', source: search, target: null },
    ]);
    expect(plan.items).toEqual([{ app: 'search' }]);
    expect(promoted(target, plan)).toEqual(source);
  });

  it('sets a changed setting and removes a setting the source no longer has, with update_app', () => {
    const source = {
      apps: [{ ...checkout, name: 'Till', settings: { theme: 'light' } }],
    };
    const target = { apps: [search, checkout] };
    const plan = planPromotion(source, target, [{ app: 'checkout' }]);
    expect(plan.operations).toEqual([
      {
        update_app: [
          { id: 'checkout', name: 'Till', settings: { theme: 'light', max_items: null } },
        ],
      },
    ]);
    expect(plan.differences.map(({ path, source: from, target: to }) => [path, from, to])).toEqual([
      ['/name', 'Till', 'Checkout'],
      ['/settings/theme', 'light', 'dark'],
      ['/settings/max_items', null, 20],
    ]);
    expect(promoted(target, plan)).toEqual({ apps: [search, source.apps[0]] });
  });

  it('unsets a field of an app the source does not have, at the target index', () => {
    const source = { apps: [{ id: 'checkout', name: 'Checkout', platform: 'web' }] };
    const target = { apps: [search, checkout] };
    const plan = planPromotion(source, target, [{ app: 'checkout' }]);
    expect(plan.operations).toEqual([
      { unset: [{ path: '/apps/1/enabled' }, { path: '/apps/1/settings' }] },
    ]);
    expect(promoted(target, plan)).toEqual({ apps: [search, source.apps[0]] });
  });

  it('groups the items of each phase in one operation, in the source order', () => {
    const home = { id: 'home', name: 'Home', platform: 'android' };
    const source = {
      apps: [home, { ...checkout, name: 'Till' }, search, { ...search, id: 'feed', name: 'Feed' }],
    };
    const target = { apps: [{ ...search, name: 'Find' }, checkout, { ...home, id: 'old' }] };
    const plan = planPromotion(source, target);
    expect(plan.operations).toEqual([
      {
        update_app: [
          { id: 'checkout', name: 'Till' },
          { id: 'search', name: 'Search' },
        ],
      },
      { create_app: [home, { ...search, id: 'feed', name: 'Feed' }] },
      { delete_app: [{ id: 'old' }] },
    ]);
    expect(promoted(target, plan)).toEqual({
      apps: [search, { ...checkout, name: 'Till' }, home, { ...search, id: 'feed', name: 'Feed' }],
    });
  });

  it('removes an app the source does not have, last', () => {
    const source = { apps: [{ ...checkout, enabled: false }] };
    const target = { apps: [search, checkout] };
    const plan = planPromotion(source, target);
    expect(plan.operations).toEqual([
      { update_app: [{ id: 'checkout', enabled: false }] },
      { delete_app: [{ id: 'search' }] },
    ]);
    expect(plan.differences).toContainEqual({
      item: { app: 'search' },
      path: '',
      source: null,
      target: search,
    });
    expect(promoted(target, plan)).toEqual(source);
  });

  it('brings a new test as a draft, without its lifecycle', () => {
    const running = test('running', { started_at: '2026-11-22T10:00:00.000Z' });
    const source = { apps: [checkout], ab_tests: [running] };
    const target = { apps: [checkout] };
    const plan = planPromotion(source, target);
    const { status: _status, started_at: _started, ...definition } = running;
    expect(plan.operations).toEqual([{ create_ab_test: [definition] }]);
    expect(plan.differences).toEqual([
      { item: { ab_test: 'big-button' }, path: '', source: definition, target: null },
    ]);
    expect(promoted(target, plan)).toEqual({ apps: [checkout], ab_tests: [test('draft')] });
  });

  it('changes a draft test of the target with set and unset at its index, keeping its status', () => {
    const other = { ...test('ended'), id: 'old-test', winner: undefined };
    const { description: _description, ...withoutDescription } = test('running');
    const source = {
      apps: [checkout],
      ab_tests: [
        {
          ...withoutDescription,
          variants: [
            { id: 'a', weight: 100 },
            { id: 'b', weight: 0 },
          ],
        },
      ],
    };
    const target = read({ apps: [checkout], ab_tests: [other, test('draft')] });
    const plan = planPromotion(source, target, [{ ab_test: 'big-button' }]);
    expect(plan.operations).toEqual([
      { set: [{ path: '/ab_tests/1/variants', value: source.ab_tests[0]?.variants }] },
      { unset: [{ path: '/ab_tests/1/description' }] },
    ]);
    const after = promoted(target, plan);
    expect((after.ab_tests as Data[])[1]).toEqual({
      id: 'big-button',
      app: 'checkout',
      status: 'draft',
      variants: source.ab_tests[0]?.variants,
    });
  });

  it('carries the metrics a test names with its definition: goals and guardrails', () => {
    const measured = test('running', { metrics: ['checkout-rate'], guardrails: ['errors'] });
    const created = planPromotion({ apps: [checkout], ab_tests: [measured] }, { apps: [checkout] });
    expect(created.operations).toEqual([
      {
        create_ab_test: [
          {
            id: 'big-button',
            app: 'checkout',
            description: 'Try it',
            variants: measured.variants,
            metrics: ['checkout-rate'],
            guardrails: ['errors'],
          },
        ],
      },
    ]);
    const source = {
      apps: [checkout],
      ab_tests: [test('draft', { metrics: ['revenue', 'checkout-rate'] })],
    };
    const target = read({ apps: [checkout], ab_tests: [measured] });
    target.ab_tests = [test('draft', { metrics: ['checkout-rate'], guardrails: ['errors'] })];
    const plan = planPromotion(source, target);
    expect(plan.differences.map(({ path }) => path)).toEqual(['/metrics', '/guardrails']);
    expect(plan.operations).toEqual([
      { set: [{ path: '/ab_tests/0/metrics', value: ['revenue', 'checkout-rate'] }] },
      { unset: [{ path: '/ab_tests/0/guardrails' }] },
    ]);
    expect(promoted(target, plan)).toEqual(source);
  });

  it('lists a test running in the target as not promotable, with the reason, and changes nothing of it', () => {
    const source = { apps: [checkout], ab_tests: [test('draft', { description: 'Bigger' })] };
    const target = { apps: [checkout], ab_tests: [test('running')] };
    const plan = planPromotion(source, target);
    expect(plan.operations).toEqual([]);
    expect(plan.items).toEqual([]);
    expect(plan.not_promotable).toEqual([
      {
        item: { ab_test: 'big-button' },
        reason:
          'The A/B test is running in the target, and a draft cannot change a running test: end it there first',
      },
    ]);
    expect(plan.differences).toEqual([
      { item: { ab_test: 'big-button' }, path: '/description', source: 'Bigger', target: 'Try it' },
    ]);
  });

  it('removes a draft test the source lacks, from the highest index down, and keeps an ended one', () => {
    const ended = { ...test('ended'), id: 'ended-test' };
    const target = read({
      apps: [checkout],
      ab_tests: [{ ...test('draft'), id: 'first' }, ended, { ...test('draft'), id: 'third' }],
    });
    const plan = planPromotion({ apps: [checkout] }, target);
    expect(plan.operations).toEqual([
      { unset: [{ path: '/ab_tests/2' }, { path: '/ab_tests/0' }] },
    ]);
    expect(plan.not_promotable).toEqual([
      {
        item: { ab_test: 'ended-test' },
        reason:
          'The A/B test has ended in the target; its definition is the record of what ran, so a draft does not remove it (delete it there)',
      },
    ]);
    expect(promoted(target, plan)).toEqual({ apps: [checkout], ab_tests: [ended] });
  });

  it('does not bring a test whose app is neither in the target nor promoted with it', () => {
    const source = { apps: [checkout, search], ab_tests: [{ ...test('draft'), app: 'search' }] };
    const target = { apps: [checkout] };
    const plan = planPromotion(source, target, [{ ab_test: 'big-button' }]);
    expect(plan.operations).toEqual([]);
    expect(plan.not_promotable).toEqual([
      {
        item: { ab_test: 'big-button' },
        reason: 'The A/B test\'s app "search" is not in the target; promote the app too',
      },
    ]);
    // With the app chosen too, both travel: the app first.
    const both = planPromotion(source, target, [{ ab_test: 'big-button' }, { app: 'search' }]);
    expect(both.not_promotable).toEqual([]);
    expect(both.operations.map((op) => Object.keys(op)[0])).toEqual([
      'create_app',
      'create_ab_test',
    ]);
    expect(promoted(target, both)).toEqual({ ...source, apps: [checkout, search] });
  });

  it('does not remove an app that a test staying in the target uses', () => {
    const source = { apps: [search] };
    const target = { apps: [checkout, search], ab_tests: [test('running')] };
    const plan = planPromotion(source, target);
    expect(plan.operations).toEqual([]);
    expect(plan.not_promotable).toEqual([
      {
        item: { app: 'checkout' },
        reason:
          'The A/B test "big-button" in the target uses this app; promote its removal or its move to another app too, or keep the app',
      },
      {
        item: { ab_test: 'big-button' },
        reason:
          'The A/B test is running in the target, and a draft cannot remove a running test: end it there, then delete it',
      },
    ]);
    // A draft test removed with it frees the app.
    const draftTarget = { apps: [checkout, search], ab_tests: [test('draft')] };
    const freed = planPromotion(source, draftTarget);
    expect(freed.not_promotable).toEqual([]);
    expect(promoted(draftTarget, freed)).toEqual({ apps: [search], ab_tests: [] });
  });

  it('keeps an app a test stays on when the test cannot move to its new app', () => {
    const source = { apps: [search], ab_tests: [{ ...test('draft'), app: 'profile' }] };
    const target = { apps: [checkout, search], ab_tests: [test('draft')] };
    const plan = planPromotion(source, target);
    expect(plan.not_promotable.map(({ item }) => item)).toEqual([
      { app: 'checkout' },
      { ab_test: 'big-button' },
    ]);
    expect(plan.operations).toEqual([]);
  });

  it('ignores lifecycle fields: a test differing only in status, winner or dates does not differ', () => {
    const source = { apps: [checkout], ab_tests: [test('draft')] };
    const target = {
      apps: [checkout],
      ab_tests: [
        test('promoted', {
          winner: 'big',
          started_at: '2026-11-22T10:00:00.000Z',
          ended_at: '2026-11-29T10:00:00.000Z',
        }),
      ],
    };
    expect(planPromotion(source, target)).toEqual({
      differences: [],
      operations: [],
      not_promotable: [],
      items: [],
    });
  });

  it('changes only the items chosen, and says nothing of a chosen item that does not differ', () => {
    const source = {
      apps: [{ ...checkout, name: 'Till' }, search],
      ab_tests: [test('draft', { description: 'New' })],
    };
    const target = { apps: [checkout], ab_tests: [test('draft')] };
    const plan = planPromotion(source, target, [
      { app: 'search' },
      { app: 'nowhere' },
      { ab_test: 'big-button' },
    ]);
    expect(plan.items).toEqual([{ app: 'search' }, { ab_test: 'big-button' }]);
    expect(plan.operations).toEqual([
      { create_app: [search] },
      { set: [{ path: '/ab_tests/0/description', value: 'New' }] },
    ]);
    expect(plan.differences.map(({ item }) => item)).toEqual([
      { app: 'search' },
      { ab_test: 'big-button' },
    ]);
    expect(planPromotion(source, target, []).operations).toEqual([]);
  });

  it('plans nothing for identical configs, or for configs with no apps and tests', () => {
    const config = { apps: [checkout, search], ab_tests: [test('running')] };
    expect(planPromotion(config, structuredClone(config))).toEqual({
      differences: [],
      operations: [],
      not_promotable: [],
      items: [],
    });
    expect(planPromotion(null, {}).operations).toEqual([]);
    expect(planPromotion('not a config', { apps: 'not a list' }).operations).toEqual([]);
  });
});

describe('the plan on the wire', () => {
  it('reads as the preview the contract describes', () => {
    const source = { apps: [{ ...checkout, name: 'Till' }, search], ab_tests: [test('draft')] };
    const target = { apps: [checkout], ab_tests: [test('running', { description: 'Old' })] };
    const plan = planPromotion(source, target);
    const preview = {
      from_account: 'acc_staging',
      to_account: 'acc_production',
      from_config_id: 'cfg_1',
      from_revision: 1,
      to_config_id: 'cfg_2',
      differences: plan.differences,
      operations: plan.operations,
      not_promotable: plan.not_promotable,
    };
    expect(plan.not_promotable).toHaveLength(1);
    expect(promotionPreviewSchema.parse(JSON.parse(JSON.stringify(preview)))).toEqual(preview);
  });
});
