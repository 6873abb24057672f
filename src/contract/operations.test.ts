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

  it('keep unknown keys on every action', () => {
    for (const key of ACTION_KEYS) {
      const item = { id: 'x', path: '/x', value: 1, variant: 'v', extra: { deep: [1] } };
      expect(operationSchema.parse({ [key]: [item] })).toEqual({ [key]: [item] });
    }
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
