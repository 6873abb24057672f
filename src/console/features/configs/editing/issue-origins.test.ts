import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../../contract/operations';
import { issueOriginsOf, issuesByOperation } from './issue-origins';

const labels = (...args: Parameters<typeof issueOriginsOf>) =>
  issueOriginsOf(...args).map((origin) => origin && `${origin.operation} ${origin.label}`);

describe('issueOriginsOf', () => {
  it('names the update_app or create_app whose app holds the issue, by the order it was applied', () => {
    const operations: Operation[] = [
      { update_app: [{ id: 'checkout', platform: 'desktop' }] },
      { create_app: [{ id: 'rocket', name: 'Rocket', platform: 'web' }] },
    ];
    expect(
      labels(
        operations,
        ['/apps/3/platform', '/apps/7'],
        ['/apps/3/platform', '/apps/7/name', '/apps/4'],
      ),
    ).toEqual(['0 update_app checkout', '1 create_app rocket', null]);
  });

  it('names set and unset by their pointer, the deepest place first', () => {
    const operations: Operation[] = [
      { update_app: [{ id: 'checkout', settings: { theme: 'x' } }] },
      {
        set: [
          { path: '/apps/0/settings/theme', value: 'y' },
          { path: '/settings', value: {} },
        ],
      },
      { unset: [{ path: '/apps/1/name' }] },
    ];
    const applied = ['/apps/0/settings/theme', '/settings', '/apps/1/name'];
    expect(
      labels(operations, applied, [
        '/apps/0/settings/theme',
        '/settings/mode',
        '/apps/1/name',
        '/apps/2',
      ]),
    ).toEqual(['1 set /apps/0/settings/theme', '1 set /settings', '2 unset /apps/1/name', null]);
  });

  it('names A/B test steps by their test, and a promote for what it copied into the app', () => {
    const operations: Operation[] = [
      { start_ab_test: [{ id: 'banner' }] },
      { promote_ab_test: [{ id: 'button', variant: 'b' }] },
    ];
    const applied = [
      '/ab_tests/0/status',
      '/ab_tests/0/started_at',
      '/apps/2/settings/color',
      '/ab_tests/1/winner',
    ];
    expect(
      labels(operations, applied, [
        '/ab_tests/0/started_at',
        '/apps/2/settings/color',
        '/ab_tests/1',
      ]),
    ).toEqual(['0 start_ab_test banner', '1 promote_ab_test button', '1 promote_ab_test button']);
  });

  it('names nothing for a deleted item, whose index now holds another', () => {
    const operations: Operation[] = [
      { delete_app: [{ id: 'old' }] },
      { update_app: [{ id: 'checkout', name: '' }] },
    ];
    expect(labels(operations, ['/apps/1', '/apps/1/name'], ['/apps/1/name'])).toEqual([null]);
    expect(labels(operations, ['/apps/1', '/apps/2/name'], ['/apps/1', '/apps/2/name'])).toEqual([
      null,
      '1 update_app checkout',
    ]);
  });

  it('lists the issues of each operation', () => {
    const origins = issueOriginsOf(
      [{ set: [{ path: '/a', value: 1 }] }, { set: [{ path: '/b', value: 1 }] }],
      ['/a', '/b'],
      ['/b', '/c', '/a/x', '/b/y'],
    );
    expect(issuesByOperation(origins, 2)).toEqual([[2], [0, 3]]);
  });
});
