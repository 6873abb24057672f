import { describe, expect, it } from 'vitest';
import {
  ACTION_KEYS,
  actionKeyOf,
  isLifecycleAction,
  itemsOf,
  LIFECYCLE_ACTIONS,
  operations,
  operationSchema,
} from './operations';

describe('operation items', () => {
  it('keep unknown keys and values of any type: validation judges them, not the request', () => {
    const operation = {
      create_app: [{ id: 'checkout', platform: 'desktop', colour: 'red', settings: 5 }],
    };
    expect(operationSchema.parse(operation)).toEqual(operation);
  });

  it('keep unknown keys on every action that acts on the data', () => {
    for (const key of ACTION_KEYS.filter((action) => action !== 'edit_text')) {
      const item = { id: 'x', path: '/x', value: 1, variant: 'v', extra: { deep: [1] } };
      expect(operationSchema.parse({ [key]: [item] })).toEqual({ [key]: [item] });
    }
  });

  it('take edit_text as exactly one item of ordered, non-overlapping changes, and nothing else', () => {
    const change = (offset: number, deleteCount: number) => ({
      offset,
      delete_count: deleteCount,
      insert: 'x',
    });
    const paths = (operation: unknown) =>
      operationSchema.safeParse(operation).error?.issues.map((issue) => issue.path.join('/'));
    expect(paths(operations.editText(change(0, 2), change(2, 0), change(9, 1)))).toBeUndefined();
    expect(paths(operations.editText(change(0, 3), change(2, 0)))).toEqual([
      'edit_text/0/changes/1/offset',
    ]);
    expect(paths(operations.editText(change(4, 0), change(2, 0)))).toEqual([
      'edit_text/0/changes/1/offset',
    ]);
    expect(paths({ edit_text: [{ changes: [], extra: 1 }] })).toEqual(['edit_text/0']);
    expect(paths({ edit_text: [{ changes: [{ ...change(0, 0), id: 'x' }] }] })).toEqual([
      'edit_text/0/changes/0',
    ]);
    expect(paths({ edit_text: [{ changes: [change(-1, 0)] }] })).toEqual([
      'edit_text/0/changes/0/offset',
    ]);
    expect(paths({ edit_text: [{ changes: [] }, { changes: [] }] })).toEqual(['edit_text']);
  });

  it('the typed builders produce operations that parse', () => {
    const built = [
      operations.createApp({ id: 'checkout', name: 'Checkout', platform: 'web' }),
      operations.updateApp({ id: 'checkout', settings: { theme: null } }),
      operations.deleteApp('a', 'b'),
      operations.set('/apps/0/enabled', false),
      operations.unset('/apps/0/settings'),
      operations.createAbTest({
        id: 't',
        app: 'checkout',
        variants: [
          { id: 'control', weight: 50 },
          { id: 'big', weight: 50 },
        ],
      }),
      operations.updateAbTest({ id: 't', description: 'Bigger' }),
      operations.startAbTest('t'),
      operations.endAbTest('t'),
      operations.promoteAbTest('t', 'big'),
      operations.deleteAbTest('t'),
      operations.editText({ offset: 0, delete_count: 1, insert: '#' }),
    ];
    expect(built.map(actionKeyOf)).toEqual(ACTION_KEYS);
    for (const operation of built) expect(operationSchema.parse(operation)).toEqual(operation);
    expect(itemsOf(operations.deleteApp('a', 'b'))).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('tells lifecycle actions from ordinary ones', () => {
    expect(ACTION_KEYS.filter(isLifecycleAction)).toEqual(LIFECYCLE_ACTIONS);
    expect(isLifecycleAction('create_ab_test')).toBe(false);
    expect(isLifecycleAction('toString')).toBe(false);
  });
});
