/**
 * The operations applier: app actions, set / unset, refusals, all-or-nothing,
 * comments of untouched parts, applied paths and a size sanity check. The A/B test actions
 * and the lifecycle table are in ab-test-lifecycle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, MAX_POINTER_LENGTH } from '../../contract/limits';
import type { Operation } from '../../contract/operations';
import { parseConfig, stringifyConfig } from '../parse';
import { applied, NOW, refused } from '../testing/apply-helpers';
import { applyOperations } from './apply-operations';
import { nestedLists, nestedMaps } from '../testing/nested-values';

/** Round-trip stable (guarded by a test below), so an edit's expected text is exact. */
const FIXTURE = `# Apps this account provisions.
apps:
  # The storefront.
  - id: checkout # required; unique
    name: Checkout # shown in the UI
    platform: web
    settings:
      # The colour scheme.
      theme: dark # dark or light
      max_items: 20
  - id: search
    name: Search
    platform: ios
    enabled: false

# Experiments.
ab_tests:
  - id: bigger-button
    app: checkout
    description: Try it
    status: draft
    variants:
      - id: control
        weight: 50
        settings: {}
      - id: big
        weight: 50
        settings:
          button_size: large
`;

function appsOf(data: unknown): Record<string, unknown>[] {
  return (data as { apps: Record<string, unknown>[] }).apps;
}

/** The fixture with `inserted` placed right after `anchor` (which must occur once). */
function insertAfter(anchor: string, inserted: string, source = FIXTURE): string {
  expect(source.split(anchor)).toHaveLength(2);
  return source.replace(anchor, anchor + inserted);
}

function replaceOnce(from: string, to: string, source = FIXTURE): string {
  expect(source.split(from)).toHaveLength(2);
  return source.replace(from, to);
}

describe('the fixture', () => {
  it('is round-trip stable, so expected texts below can be exact', () => {
    expect(applied(FIXTURE, []).text).toBe(FIXTURE);
    expect(applied(FIXTURE, []).paths).toEqual([]);
  });
});

describe('create_app', () => {
  it('appends the app written as given, unknown keys and bad values included', () => {
    const item = {
      id: 'desk',
      name: 'Desk',
      platform: 'desktop',
      owner: 'team-a',
      settings: { theme: 'light', retries: 3 },
    };
    const { text, data, paths } = applied(FIXTURE, [{ create_app: [item] }]);
    expect(paths).toEqual(['/apps/2']);
    const apps = appsOf(data);
    expect(apps).toHaveLength(3);
    expect(apps[2]).toEqual(item);
    expect(Object.keys(apps[2] ?? {})).toEqual(['id', 'name', 'platform', 'owner', 'settings']);
    expect(text).toBe(
      insertAfter(
        '    enabled: false\n',
        `  - id: desk
    name: Desk
    platform: desktop
    owner: team-a
    settings:
      theme: light
      retries: 3
`,
      ),
    );
  });

  it('lands an app without a name (validation judges it later)', () => {
    const { data } = applied(FIXTURE, [{ create_app: [{ id: 'nameless', platform: 'web' }] }]);
    expect(appsOf(data)[2]).toEqual({ id: 'nameless', platform: 'web' });
  });

  it('appends several items in order, with one applied path each', () => {
    const { data, paths } = applied(FIXTURE, [
      {
        create_app: [
          { id: 'one', name: 'One', platform: 'web' },
          { id: 'two', name: 'Two', platform: 'server' },
        ],
      },
    ]);
    expect(paths).toEqual(['/apps/2', '/apps/3']);
    expect(appsOf(data).map((app) => app.id)).toEqual(['checkout', 'search', 'one', 'two']);
  });

  it('creates the apps list in an empty document', () => {
    const { text, data, paths } = applied('', [
      { create_app: [{ id: 'web-app', name: 'Web', platform: 'web' }] },
    ]);
    expect(paths).toEqual(['/apps/0']);
    expect(data).toEqual({ apps: [{ id: 'web-app', name: 'Web', platform: 'web' }] });
    expect(text).toBe('apps:\n  - id: web-app\n    name: Web\n    platform: web\n');
  });

  it('keeps the comment of a document that holds only a comment', () => {
    const { text, paths } = applied('# Nothing yet.\n', [
      { create_app: [{ id: 'a', name: 'A', platform: 'web' }] },
    ]);
    expect(paths).toEqual(['/apps/0']);
    expect(text.startsWith('# Nothing yet.\n')).toBe(true);
    expect(text).toContain('apps:\n  - id: a\n    name: A\n    platform: web\n');
  });

  it('fills an `apps:` key without a value', () => {
    const { text, paths } = applied('apps:\nab_tests: []\n', [
      { create_app: [{ id: 'a', name: 'A', platform: 'web' }] },
    ]);
    expect(paths).toEqual(['/apps/0']);
    expect(text).toBe('apps:\n  - id: a\n    name: A\n    platform: web\nab_tests: []\n');
  });

  it('turns an empty flow list `apps: []` into a block list', () => {
    const { text } = applied('# Apps.\napps: []\n', [
      { create_app: [{ id: 'a', name: 'A', platform: 'web' }] },
    ]);
    expect(text).toBe('# Apps.\napps:\n  - id: a\n    name: A\n    platform: web\n');
  });

  it('refuses an id that is taken (409 app.id_taken), naming the operation and item', () => {
    const refusal = refused(FIXTURE, [
      { create_app: [{ id: 'fresh', name: 'Fresh', platform: 'web' }] },
      {
        create_app: [
          { id: 'another', name: 'Another', platform: 'web' },
          { id: 'third', name: 'Third', platform: 'web' },
          { id: 'search', name: 'Search again', platform: 'web' },
        ],
      },
    ]);
    expect(refusal).toEqual({
      kind: 'conflict',
      code: 'app.id_taken',
      operationIndex: 1,
      itemIndex: 2,
      action: 'create_app',
      requestPath: '/operations/1/create_app/2',
      message: expect.stringContaining('/operations/1/create_app/2') as string,
    });
    expect(refusal.message).toContain('"search"');
  });

  it('refuses an id created earlier in the same request', () => {
    const refusal = refused(FIXTURE, [
      {
        create_app: [
          { id: 'twice', name: 'Once', platform: 'web' },
          { id: 'twice', name: 'Twice', platform: 'web' },
        ],
      },
    ]);
    expect(refusal).toMatchObject({
      kind: 'conflict',
      code: 'app.id_taken',
      operationIndex: 0,
      itemIndex: 1,
      requestPath: '/operations/0/create_app/1',
    });
  });

  it('accepts the id of an app deleted earlier in the same request', () => {
    const { data, paths } = applied(FIXTURE, [
      { delete_app: [{ id: 'search' }] },
      { create_app: [{ id: 'search', name: 'New search', platform: 'android' }] },
    ]);
    expect(paths).toEqual(['/apps/1']);
    expect(appsOf(data)[1]).toEqual({ id: 'search', name: 'New search', platform: 'android' });
  });

  it.each([
    ['a string', 'checkout'],
    ['null', null],
    ['a list', [{ id: 'x' }]],
    ['an object without an id', { name: 'No id', platform: 'web' }],
    ['an object with a number id', { id: 7, name: 'Seven', platform: 'web' }],
  ])('refuses an item that is %s (400 operation.invalid_item)', (_label, item) => {
    const refusal = refused(FIXTURE, [
      { create_app: [{ id: 'fine', name: 'Fine', platform: 'web' }, item] },
    ]);
    expect(refusal).toMatchObject({
      kind: 'invalid_operation',
      code: 'operation.invalid_item',
      operationIndex: 0,
      itemIndex: 1,
      requestPath: '/operations/0/create_app/1',
    });
    expect(refusal.message.startsWith('/operations/0/create_app/1: ')).toBe(true);
  });

  it('refuses when `apps` is not a list (409 path.conflict)', () => {
    const refusal = refused('apps: none\n', [
      { create_app: [{ id: 'a', name: 'A', platform: 'web' }] },
    ]);
    expect(refusal).toMatchObject({ kind: 'conflict', code: 'path.conflict', itemIndex: 0 });
  });
});

describe('update_app', () => {
  it('changes the named fields in place, with one applied path per field', () => {
    const { text, data, paths } = applied(FIXTURE, [
      { update_app: [{ id: 'checkout', name: 'Shop', platform: 'android', enabled: false }] },
    ]);
    expect(paths).toEqual(['/apps/0/name', '/apps/0/platform', '/apps/0/enabled']);
    expect(appsOf(data)[0]).toEqual({
      id: 'checkout',
      name: 'Shop',
      platform: 'android',
      settings: { theme: 'dark', max_items: 20 },
      enabled: false,
    });
    // The replaced value keeps its inline comment; the new field is added at the end.
    let expected = replaceOnce(
      '    name: Checkout # shown in the UI\n',
      '    name: Shop # shown in the UI\n',
    );
    expected = replaceOnce('    platform: web\n', '    platform: android\n', expected);
    expected = replaceOnce(
      '      max_items: 20\n',
      '      max_items: 20\n    enabled: false\n',
      expected,
    );
    expect(text).toBe(expected);
  });

  it('writes values as given, unknown fields included', () => {
    const { data, paths } = applied(FIXTURE, [
      { update_app: [{ id: 'search', platform: 'desktop', owner: 'team-b' }] },
    ]);
    expect(paths).toEqual(['/apps/1/platform', '/apps/1/owner']);
    expect(appsOf(data)[1]).toEqual({
      id: 'search',
      name: 'Search',
      platform: 'desktop',
      enabled: false,
      owner: 'team-b',
    });
  });

  it('in settings, removes keys given null and sets the others', () => {
    const { text, data, paths } = applied(FIXTURE, [
      {
        update_app: [
          { id: 'checkout', settings: { theme: 'light', max_items: null, font: 'serif' } },
        ],
      },
    ]);
    expect(paths).toEqual([
      '/apps/0/settings/theme',
      '/apps/0/settings/max_items',
      '/apps/0/settings/font',
    ]);
    expect(appsOf(data)[0]?.settings).toEqual({ theme: 'light', font: 'serif' });
    expect(text).toBe(
      replaceOnce(
        '      theme: dark # dark or light\n      max_items: 20\n',
        '      theme: light # dark or light\n      font: serif\n',
      ),
    );
  });

  it('creates settings when the app has none', () => {
    const { text, data, paths } = applied(FIXTURE, [
      { update_app: [{ id: 'search', settings: { theme: 'dark', beta: true } }] },
    ]);
    expect(paths).toEqual(['/apps/1/settings/theme', '/apps/1/settings/beta']);
    expect(appsOf(data)[1]?.settings).toEqual({ theme: 'dark', beta: true });
    expect(text).toBe(
      insertAfter('    enabled: false\n', '    settings:\n      theme: dark\n      beta: true\n'),
    );
  });

  it('finds an app created earlier in the same request', () => {
    const { data, paths } = applied(FIXTURE, [
      { create_app: [{ id: 'new', name: 'New', platform: 'web' }] },
      { update_app: [{ id: 'new', name: 'Renamed' }] },
    ]);
    expect(paths).toEqual(['/apps/2', '/apps/2/name']);
    expect(appsOf(data)[2]).toEqual({ id: 'new', name: 'Renamed', platform: 'web' });
  });

  it('finds an app at its new index after an earlier delete', () => {
    const { data, paths } = applied(
      `${FIXTURE.replace(/\n# Experiments[^]*$/, '')}  - id: third\n    name: Third\n    platform: server\n`,
      [{ delete_app: [{ id: 'checkout' }] }, { update_app: [{ id: 'third', name: '3rd' }] }],
    );
    expect(paths).toEqual(['/apps/0', '/apps/1/name']);
    expect(appsOf(data).map((app) => app.name)).toEqual(['Search', '3rd']);
  });

  it('finds an app by the id a `set` gave it, and no longer by its old id', () => {
    const { data, paths } = applied(FIXTURE, [
      { set: [{ path: '/apps/0/id', value: 'shop' }] },
      { update_app: [{ id: 'shop', name: 'Shop' }] },
    ]);
    expect(paths).toEqual(['/apps/0/id', '/apps/0/name']);
    expect(appsOf(data)[0]).toMatchObject({ id: 'shop', name: 'Shop' });

    const refusal = refused(FIXTURE, [
      { set: [{ path: '/apps/0/id', value: 'shop' }] },
      { update_app: [{ id: 'checkout', name: 'Shop' }] },
    ]);
    expect(refusal).toMatchObject({ kind: 'not_found', code: 'app.not_found', operationIndex: 1 });
  });

  it('refuses an unknown id (422 app.not_found)', () => {
    const refusal = refused(FIXTURE, [
      {
        update_app: [
          { id: 'checkout', name: 'Fine' },
          { id: 'ghost', name: 'Boo' },
        ],
      },
    ]);
    expect(refusal).toMatchObject({
      kind: 'not_found',
      code: 'app.not_found',
      operationIndex: 0,
      itemIndex: 1,
      action: 'update_app',
      requestPath: '/operations/0/update_app/1',
    });
    expect(refusal.message).toMatch(/^\/operations\/0\/update_app\/1: .*"ghost"/);
  });

  it('refuses an item without a string id (400)', () => {
    expect(refused(FIXTURE, [{ update_app: [{ name: 'No id' }] }])).toMatchObject({
      kind: 'invalid_operation',
      code: 'operation.invalid_item',
      requestPath: '/operations/0/update_app/0',
    });
  });
});

describe('delete_app', () => {
  it('removes the app and leaves the rest of the text as it was', () => {
    const { text, data, paths } = applied(FIXTURE, [{ delete_app: [{ id: 'search' }] }]);
    expect(paths).toEqual(['/apps/1']);
    expect(appsOf(data).map((app) => app.id)).toEqual(['checkout']);
    expect(text).toBe(
      replaceOnce('  - id: search\n    name: Search\n    platform: ios\n    enabled: false\n', ''),
    );
  });

  it('removes several apps, each at its index when it is removed', () => {
    const { data, paths } = applied(FIXTURE, [
      { delete_app: [{ id: 'checkout' }, { id: 'search' }] },
    ]);
    expect(paths).toEqual(['/apps/0']);
    expect(appsOf(data)).toEqual([]);
  });

  it('refuses an unknown id (422 app.not_found)', () => {
    const refusal = refused(FIXTURE, [
      { create_app: [{ id: 'x', name: 'X', platform: 'web' }] },
      { delete_app: [{ id: 'ghost' }] },
    ]);
    expect(refusal).toMatchObject({
      kind: 'not_found',
      code: 'app.not_found',
      operationIndex: 1,
      itemIndex: 0,
      requestPath: '/operations/1/delete_app/0',
    });
    expect(refusal.message).toContain('"ghost"');
  });

  it('refuses while a running test targets the app (409 app.in_running_test)', () => {
    const running = FIXTURE.replace('status: draft', 'status: running');
    const refusal = refused(running, [{ delete_app: [{ id: 'search' }, { id: 'checkout' }] }]);
    expect(refusal).toMatchObject({
      kind: 'not_allowed_in_state',
      code: 'app.in_running_test',
      operationIndex: 0,
      itemIndex: 1,
      requestPath: '/operations/0/delete_app/1',
    });
    expect(refusal.message).toContain('"checkout"');
    expect(refusal.message).toContain('"bigger-button"');
  });

  it.each(['draft', 'ended', 'promoted'])('deletes an app whose test is %s', (status) => {
    const source = FIXTURE.replace('status: draft', `status: ${status}`);
    const { data, paths } = applied(source, [{ delete_app: [{ id: 'checkout' }] }]);
    expect(paths).toEqual(['/apps/0']);
    expect(appsOf(data).map((app) => app.id)).toEqual(['search']);
  });
});

describe('set', () => {
  it('replaces a value in place, keeping the comments of its key', () => {
    const { text, paths } = applied(FIXTURE, [
      { set: [{ path: '/apps/0/settings/theme', value: 'light' }] },
    ]);
    expect(paths).toEqual(['/apps/0/settings/theme']);
    expect(text).toBe(
      replaceOnce(
        '      # The colour scheme.\n      theme: dark # dark or light\n',
        '      # The colour scheme.\n      theme: light # dark or light\n',
      ),
    );
  });

  it('replaces a mapping with a value of another kind', () => {
    const { data, paths } = applied(FIXTURE, [
      { set: [{ path: '/apps/0/settings', value: ['not', 'a', 'map'] }] },
    ]);
    expect(paths).toEqual(['/apps/0/settings']);
    expect(appsOf(data)[0]?.settings).toEqual(['not', 'a', 'map']);
  });

  it('sets a nested value, creating the parent mappings', () => {
    const { text, data, paths } = applied(FIXTURE, [
      { set: [{ path: '/apps/1/settings/theme', value: 'dark' }] },
      { set: [{ path: '/meta/owner/team', value: 'growth' }] },
    ]);
    expect(paths).toEqual(['/apps/1/settings/theme', '/meta/owner/team']);
    expect(appsOf(data)[1]?.settings).toEqual({ theme: 'dark' });
    expect((data as { meta: unknown }).meta).toEqual({ owner: { team: 'growth' } });
    expect(text).toBe(
      `${insertAfter('    enabled: false\n', '    settings:\n      theme: dark\n')}meta:\n  owner:\n    team: growth\n`,
    );
  });

  it('creates parent mappings in an empty document', () => {
    const { text, paths } = applied('', [{ set: [{ path: '/a/b', value: 1 }] }]);
    expect(paths).toEqual(['/a/b']);
    expect(text).toBe('a:\n  b: 1\n');
  });

  it('fills a key whose value is null with a new mapping', () => {
    const { data } = applied('apps:\n  - id: a\n    settings:\n', [
      { set: [{ path: '/apps/0/settings/theme', value: 'dark' }] },
    ]);
    expect(data).toEqual({ apps: [{ id: 'a', settings: { theme: 'dark' } }] });
  });

  it('appends to a list with `-` and with an index equal to its length', () => {
    const { data, paths } = applied(FIXTURE, [
      {
        set: [
          { path: '/apps/-', value: { id: 'dash', name: 'Dash', platform: 'web' } },
          { path: '/apps/3', value: { id: 'len', name: 'Len', platform: 'web' } },
          { path: '/ab_tests/0/variants/-', value: { id: 'third', weight: 0 } },
        ],
      },
    ]);
    expect(paths).toEqual(['/apps/2', '/apps/3', '/ab_tests/0/variants/2']);
    expect(appsOf(data).map((app) => app.id)).toEqual(['checkout', 'search', 'dash', 'len']);
  });

  it('replaces a list item at an index below the length', () => {
    const { data, paths } = applied('tags: [a, b, c]\n', [
      { set: [{ path: '/tags/1', value: 'B' }] },
    ]);
    expect(paths).toEqual(['/tags/1']);
    expect(data).toEqual({ tags: ['a', 'B', 'c'] });
  });

  it('writes null and other values as given', () => {
    const { data } = applied('a: 1\n', [
      {
        set: [
          { path: '/a', value: null },
          { path: '/b', value: { deep: [1, 'two', false] } },
        ],
      },
    ]);
    expect(data).toEqual({ a: null, b: { deep: [1, 'two', false] } });
  });

  it('with the path "" replaces the whole document', () => {
    const { text, data, paths } = applied(FIXTURE, [
      { set: [{ path: '', value: { apps: [{ id: 'only', name: 'Only', platform: 'web' }] } }] },
    ]);
    expect(paths).toEqual(['']);
    expect(data).toEqual({ apps: [{ id: 'only', name: 'Only', platform: 'web' }] });
    expect(text).not.toContain('checkout');
  });

  it('unescapes ~1 and ~0 in tokens, and escapes the applied path the same way', () => {
    const { data, paths } = applied(FIXTURE, [
      { set: [{ path: '/apps/0/settings/a~1b~0c', value: 'x' }] },
      { set: [{ path: '/odd~0key/with~1slash', value: 1 }] },
    ]);
    expect(paths).toEqual(['/apps/0/settings/a~1b~0c', '/odd~0key/with~1slash']);
    expect(appsOf(data)[0]?.settings).toMatchObject({ 'a/b~c': 'x' });
    expect((data as Record<string, unknown>)['odd~key']).toEqual({ 'with/slash': 1 });
  });

  it('finds an existing key written with ~ and /', () => {
    const { data, paths } = applied('"a/b": 1\n"c~d": 2\n', [
      {
        set: [
          { path: '/a~1b', value: 10 },
          { path: '/c~0d', value: 20 },
        ],
      },
    ]);
    expect(paths).toEqual(['/a~1b', '/c~0d']);
    expect(data).toEqual({ 'a/b': 10, 'c~d': 20 });
  });

  it.each([
    ['an index past the end', '/apps/5/name', '/apps/5'],
    ['an index past the end (last token)', '/apps/3', '/apps/3'],
    ['a token that is no index, in a list', '/apps/checkout/name', '/apps/checkout'],
    ['a token with a leading zero, in a list', '/apps/01', '/apps/01'],
    ['`-` in the middle of a path', '/apps/-/name', '/apps/-'],
  ])('refuses %s (422 path.not_found)', (_label, path, named) => {
    const refusal = refused(FIXTURE, [
      { set: [{ path: '/apps/0/name', value: 'ok' }] },
      { set: [{ path, value: 'x' }] },
    ]);
    expect(refusal).toMatchObject({
      kind: 'not_found',
      code: 'path.not_found',
      operationIndex: 1,
      itemIndex: 0,
      action: 'set',
      requestPath: '/operations/1/set/0',
    });
    expect(refusal.message).toContain(named);
  });

  it('refuses to set through a scalar (409 path.conflict)', () => {
    const refusal = refused(FIXTURE, [{ set: [{ path: '/apps/0/name/first', value: 'x' }] }]);
    expect(refusal).toMatchObject({
      kind: 'conflict',
      code: 'path.conflict',
      requestPath: '/operations/0/set/0',
    });
    expect(refusal.message).toContain('/apps/0/name');
  });

  it('refuses to set inside a document that is a scalar (409 path.conflict)', () => {
    expect(refused('just text\n', [{ set: [{ path: '/a', value: 1 }] }])).toMatchObject({
      kind: 'conflict',
      code: 'path.conflict',
    });
  });

  it.each([
    ['without a value', { path: '/apps/0/name' }],
    ['without a path', { value: 1 }],
    ['with a path that is no string', { path: 3, value: 1 }],
    ['with a path not starting with /', { path: 'apps/0/name', value: 1 }],
    ['with a ~ not followed by 0 or 1', { path: '/a~2b', value: 1 }],
    ['with a ~ at the end of a token', { path: '/a~', value: 1 }],
  ])('refuses an item %s (400 operation.invalid_item)', (_label, item) => {
    expect(refused(FIXTURE, [{ set: [item] }])).toMatchObject({
      kind: 'invalid_operation',
      code: 'operation.invalid_item',
      operationIndex: 0,
      itemIndex: 0,
      requestPath: '/operations/0/set/0',
    });
  });
});

describe('unset', () => {
  it('removes a key of a mapping', () => {
    const { text, data, paths } = applied(FIXTURE, [
      { unset: [{ path: '/apps/1/enabled' }, { path: '/apps/0/settings/max_items' }] },
    ]);
    expect(paths).toEqual(['/apps/1/enabled', '/apps/0/settings/max_items']);
    expect(appsOf(data)[1]).toEqual({ id: 'search', name: 'Search', platform: 'ios' });
    let expected = replaceOnce('    enabled: false\n', '');
    expected = replaceOnce('      max_items: 20\n', '', expected);
    expect(text).toBe(expected);
  });

  it('removes an item of a list; later items move up', () => {
    const { data, paths } = applied(FIXTURE, [{ unset: [{ path: '/apps/0' }] }]);
    expect(paths).toEqual(['/apps/0']);
    expect(appsOf(data).map((app) => app.id)).toEqual(['search']);
  });

  it('removes the keys written with ~ and /', () => {
    const { data } = applied('"a/b": 1\n"c~d": 2\ne: 3\n', [
      { unset: [{ path: '/a~1b' }, { path: '/c~0d' }] },
    ]);
    expect(data).toEqual({ e: 3 });
  });

  it.each([
    ['an absent key', '/apps/0/nope'],
    ['a key under an absent parent', '/nothing/here'],
    ['an index past the end', '/apps/2'],
    ['a token that is no index, in a list', '/apps/search'],
    ['`-` (nothing is after the last item)', '/apps/-'],
  ])('refuses %s (422 path.not_found)', (_label, path) => {
    const refusal = refused(FIXTURE, [{ unset: [{ path: '/apps/1/enabled' }, { path }] }]);
    expect(refusal).toMatchObject({
      kind: 'not_found',
      code: 'path.not_found',
      operationIndex: 0,
      itemIndex: 1,
      action: 'unset',
      requestPath: '/operations/0/unset/1',
    });
  });

  it('refuses to unset through a scalar (409 path.conflict)', () => {
    expect(refused(FIXTURE, [{ unset: [{ path: '/apps/0/name/x' }] }])).toMatchObject({
      kind: 'conflict',
      code: 'path.conflict',
    });
  });

  it('refuses to unset the whole document (400 operation.invalid_item)', () => {
    expect(refused(FIXTURE, [{ unset: [{ path: '' }] }])).toMatchObject({
      kind: 'invalid_operation',
      code: 'operation.invalid_item',
      requestPath: '/operations/0/unset/0',
    });
  });

  it('refuses an invalid JSON Pointer (400 operation.invalid_item)', () => {
    expect(refused(FIXTURE, [{ unset: [{ path: '/apps~2' }] }])).toMatchObject({
      kind: 'invalid_operation',
      code: 'operation.invalid_item',
    });
  });
});

describe('limits', () => {
  it(`takes a path of ${MAX_POINTER_LENGTH} characters and refuses one more (400)`, () => {
    const longest = `/${'k'.repeat(MAX_POINTER_LENGTH - 1)}`;
    expect(applied(FIXTURE, [{ set: [{ path: longest, value: 1 }] }]).paths).toEqual([longest]);
    const refusal = refused(FIXTURE, [{ set: [{ path: `${longest}k`, value: 1 }] }]);
    expect(refusal).toMatchObject({
      kind: 'invalid_operation',
      code: 'operation.invalid_item',
      requestPath: '/operations/0/set/0/path',
    });
    expect(refusal.message).toContain(String(MAX_POINTER_LENGTH));
  });

  it('refuses a path of 100,000 characters by its length, for set and unset', () => {
    const path = '/a'.repeat(50_000);
    for (const operation of [{ set: [{ path, value: 1 }] }, { unset: [{ path }] }]) {
      expect(refused(FIXTURE, [operation])).toMatchObject({
        kind: 'invalid_operation',
        requestPath: /\/path$/,
      });
    }
  });

  it(`takes a value that makes the config ${MAX_NESTING_DEPTH} levels deep, and refuses one level more`, () => {
    // The top mapping, a and b hold the value at /a/b/c: 3 levels before its own.
    const fits = nestedLists(MAX_NESTING_DEPTH - 3);
    expect(applied(FIXTURE, [{ set: [{ path: '/a/b/c', value: fits }] }]).paths).toEqual([
      '/a/b/c',
    ]);
    const refusal = refused(FIXTURE, [{ set: [{ path: '/a/b/c', value: [fits] }] }]);
    expect(refusal).toMatchObject({
      kind: 'invalid_operation',
      code: 'config.too_deep',
      requestPath: '/operations/0/set/0/value',
    });
    expect(refusal.message).toContain(String(MAX_NESTING_DEPTH));
    // The whole document may be one value of the limit's depth.
    expect(
      applied('', [{ set: [{ path: '', value: nestedMaps(MAX_NESTING_DEPTH) }] }]).paths,
    ).toEqual(['']);
    expect(
      refused('', [{ set: [{ path: '', value: nestedMaps(MAX_NESTING_DEPTH + 1) }] }]),
    ).toMatchObject({ code: 'config.too_deep' });
  });

  it('refuses a pointer of more tokens than the limit, even for a scalar', () => {
    const path = '/a'.repeat(MAX_NESTING_DEPTH + 1);
    expect(refused(FIXTURE, [{ set: [{ path, value: 1 }] }])).toMatchObject({
      code: 'config.too_deep',
    });
    expect(
      applied(FIXTURE, [{ set: [{ path: '/a'.repeat(MAX_NESTING_DEPTH), value: 1 }] }]).paths,
    ).toHaveLength(1);
  });

  it('counts where every action writes: an app and its settings sit 3 and 4 levels deep', () => {
    const app = (settings: unknown) => ({ id: 'deep', name: 'Deep', platform: 'web', settings });
    // apps (2), the app (3), settings (4), then the value under a settings key.
    const fits = nestedMaps(MAX_NESTING_DEPTH - 4);
    expect(applied(FIXTURE, [{ create_app: [app({ x: fits })] }]).paths).toEqual(['/apps/2']);
    expect(refused(FIXTURE, [{ create_app: [app({ x: [fits] })] }])).toMatchObject({
      kind: 'invalid_operation',
      code: 'config.too_deep',
      requestPath: '/operations/0/create_app/0',
    });
    expect(
      refused(FIXTURE, [{ update_app: [{ id: 'checkout', settings: { x: [fits] } }] }]),
    ).toMatchObject({ code: 'config.too_deep' });
    expect(refused(FIXTURE, [{ update_app: [{ id: 'search', note: [[fits]] }] }])).toMatchObject({
      code: 'config.too_deep',
    });
  });

  it('measures where an alias leads in the text, not the path through it', () => {
    // The anchored mapping sits at the limit, under 30 lists; `y` names it from level 2.
    const lists = MAX_NESTING_DEPTH - 2;
    const text = `deep: ${'['.repeat(lists)}&a {}${']'.repeat(lists)}\ny: *a\n`;
    expect(parseConfig(text).syntaxIssues).toEqual([]);
    expect(applied(text, [{ set: [{ path: '/y/k', value: 1 }] }]).paths).toEqual(['/y/k']);
    expect(refused(text, [{ set: [{ path: '/y/k', value: [1] }] }])).toMatchObject({
      kind: 'invalid_operation',
      code: 'config.too_deep',
    });
  });

  it('refuses values nested thousands of levels deep without overflowing the stack', () => {
    for (const value of [nestedLists(1_200), nestedMaps(1_000), nestedLists(200_000)]) {
      expect(refused(FIXTURE, [{ set: [{ path: '/deep', value }] }])).toMatchObject({
        kind: 'invalid_operation',
        code: 'config.too_deep',
        requestPath: '/operations/0/set/0/value',
      });
      expect(refused(FIXTURE, [{ create_app: [{ id: 'x', note: value }] }])).toMatchObject({
        requestPath: '/operations/0/create_app/0/note',
      });
    }
  });

  it('refuses to edit a document the parser could not read (409 config.unreadable)', () => {
    for (const text of [`deep: ${JSON.stringify(nestedLists(MAX_NESTING_DEPTH))}`, 'a: "open\n']) {
      const { document } = parseConfig(text);
      const result = applyOperations(document, [{ unset: [{ path: '/deep' }] }], { now: NOW });
      expect(result).toMatchObject({
        ok: false,
        refusal: {
          kind: 'not_allowed_in_state',
          code: 'config.unreadable',
          requestPath: '/operations',
        },
      });
      // Writing it would put an empty config in place of what could not be read.
      expect(() => stringifyConfig(document)).toThrow();
    }
  });
});

describe('all or nothing', () => {
  it('leaves the original untouched when a later operation of a request is refused', () => {
    const { document } = parseConfig(FIXTURE);
    const clone = document.clone();
    const result = applyOperations(
      clone,
      [
        { create_app: [{ id: 'new', name: 'New', platform: 'web' }] },
        { update_app: [{ id: 'checkout', name: 'Changed', settings: { theme: null } }] },
        { set: [{ path: '/apps/1/settings/x', value: 1 }] },
        { unset: [{ path: '/apps/0/enabled' }] },
      ] as Operation[],
      { now: NOW },
    );
    expect(result).toMatchObject({
      ok: false,
      refusal: { kind: 'not_found', code: 'path.not_found', operationIndex: 3, itemIndex: 0 },
    });
    // The clone was edited part-way; the original is exactly as it was.
    expect(clone.toString()).not.toBe(FIXTURE);
    expect(document.toString()).toBe(FIXTURE);
  });

  it('stops at the first refusal: later items are not applied', () => {
    const { document } = parseConfig(FIXTURE);
    const result = applyOperations(
      document,
      [
        {
          create_app: [
            { id: 'checkout', name: 'Taken', platform: 'web' },
            { id: 'later', name: 'Later', platform: 'web' },
          ],
        },
      ],
      { now: NOW },
    );
    expect(result.ok).toBe(false);
    expect(document.toString()).not.toContain('later');
  });
});

describe('comments and formatting of untouched parts', () => {
  it('survive create_app byte for byte', () => {
    const { text } = applied(FIXTURE, [{ create_app: [{ id: 'x', name: 'X', platform: 'web' }] }]);
    expect(text).toBe(
      insertAfter('    enabled: false\n', '  - id: x\n    name: X\n    platform: web\n'),
    );
  });

  it('survive update_app byte for byte', () => {
    const { text } = applied(FIXTURE, [{ update_app: [{ id: 'search', name: 'Find' }] }]);
    expect(text).toBe(replaceOnce('    name: Search\n', '    name: Find\n'));
  });

  it('survive set byte for byte', () => {
    const { text } = applied(FIXTURE, [
      { set: [{ path: '/ab_tests/0/variants/1/weight', value: 60 }] },
      { set: [{ path: '/ab_tests/0/variants/0/weight', value: 40 }] },
    ]);
    expect(text).toBe(
      replaceOnce(
        '      - id: control\n        weight: 50\n',
        '      - id: control\n        weight: 40\n',
        replaceOnce(
          '      - id: big\n        weight: 50\n',
          '      - id: big\n        weight: 60\n',
        ),
      ),
    );
  });

  it('keep every other line of a larger request, in order', () => {
    const { text } = applied(FIXTURE, [
      { update_app: [{ id: 'checkout', settings: { theme: 'light' } }] },
      { create_app: [{ id: 'x', name: 'X', platform: 'web' }] },
      { set: [{ path: '/ab_tests/0/description', value: 'Bigger is better' }] },
    ]);
    const changed = new Set(['      theme: dark # dark or light', '    description: Try it']);
    const kept = FIXTURE.split('\n').filter((line) => !changed.has(line));
    const lines = text.split('\n');
    let at = 0;
    for (const line of kept) {
      const found = lines.indexOf(line, at);
      expect(found, `line ${JSON.stringify(line)} kept in order`).toBeGreaterThanOrEqual(at);
      at = found + 1;
    }
    expect(text).toContain('      theme: light # dark or light\n');
    expect(text).toContain('    description: Bigger is better\n');
  });
});

describe('applied paths', () => {
  it('are in the order the operations touched them, without duplicates', () => {
    const { paths } = applied(FIXTURE, [
      { update_app: [{ id: 'search', name: 'One' }] },
      { create_app: [{ id: 'x', name: 'X', platform: 'web' }] },
      { set: [{ path: '/apps/1/name', value: 'Two' }] },
      {
        update_app: [
          { id: 'x', name: 'Y' },
          { id: 'search', name: 'Three', enabled: true },
        ],
      },
      { unset: [{ path: '/apps/0/settings/theme' }] },
      { update_app: [{ id: 'checkout', settings: { theme: 'back' } }] },
    ]);
    expect(paths).toEqual([
      '/apps/1/name',
      '/apps/2',
      '/apps/2/name',
      '/apps/1/enabled',
      '/apps/0/settings/theme',
    ]);
  });
});

describe('size sanity (linear work, judged by counts)', () => {
  const COUNT = 2000;
  const bigConfig = () => {
    const lines = ['apps:'];
    for (let i = 0; i < COUNT; i++) {
      lines.push(`  - id: app-${i}`, `    name: App ${i}`, '    platform: web');
    }
    return `${lines.join('\n')}\n`;
  };

  it(`creates ${COUNT} apps in a config of ${COUNT} apps`, () => {
    const items = Array.from({ length: COUNT }, (_, i) => ({
      id: `new-${i}`,
      name: `New ${i}`,
      platform: 'server',
    }));
    const { data, paths } = applied(bigConfig(), [{ create_app: items }]);
    const apps = appsOf(data);
    expect(apps).toHaveLength(2 * COUNT);
    expect(new Set(apps.map((app) => app.id)).size).toBe(2 * COUNT);
    expect(paths).toHaveLength(COUNT);
    expect(paths[0]).toBe(`/apps/${COUNT}`);
    expect(paths[COUNT - 1]).toBe(`/apps/${2 * COUNT - 1}`);
    expect(apps[2 * COUNT - 1]).toEqual(items[COUNT - 1]);
  });

  it(`updates ${COUNT} apps of a config of ${COUNT} apps, and refuses the last taken id`, () => {
    const updates = Array.from({ length: COUNT }, (_, i) => ({ id: `app-${i}`, enabled: false }));
    const { data, paths } = applied(bigConfig(), [{ update_app: updates }]);
    expect(paths).toHaveLength(COUNT);
    expect(appsOf(data).every((app) => app.enabled === false)).toBe(true);

    const creates = Array.from({ length: COUNT }, (_, i) => ({
      id: i === COUNT - 1 ? 'app-0' : `new-${i}`,
      name: 'N',
      platform: 'web',
    }));
    expect(refused(bigConfig(), [{ create_app: creates }])).toMatchObject({
      code: 'app.id_taken',
      itemIndex: COUNT - 1,
    });
  });
});
