/**
 * The `ab_test.changed` events of a lifecycle step are built from what the edit worker
 * learned, not by parsing the config inside the unit of work (on SQLite that is inside the
 * write lock, on the main thread).
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type * as Parse from '../../configs/parse';
import { EditPool } from '../edit-work/edit-pool';
import type { Store } from '../store/store';
import { SHOP_YAML } from '../testing/api';
import { createAccount, createApiKey } from '../testing/made-at';
import { openTestStore, type TestStore } from '../testing/test-store';
import { hashSecret } from './api-key-secrets';
import { ConfigService } from './config-service';

const parses = vi.hoisted(() => ({ inUnitOfWork: 0, inside: false }));
vi.mock('../../configs/parse', async (importOriginal) => {
  const original = await importOriginal<typeof Parse>();
  return {
    ...original,
    parseConfig: (input: string) => {
      if (parses.inside) parses.inUnitOfWork += 1;
      return original.parseConfig(input);
    },
  };
});

const T0 = '2026-11-22T10:00:00.000Z';
const clock = () => new Date(T0);

let database: TestStore;
let pool: EditPool;
beforeEach(async () => {
  database = await openTestStore();
  pool = new EditPool({ workers: 1, cacheBytes: 16 * 1024 * 1024 });
});
afterEach(async () => {
  await pool.close();
  await database.dispose();
});

/** The store, noting when a unit of work runs (SQLite runs it in one synchronous turn). */
function watched(store: Store): Store {
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== 'changeConfigs' || typeof value !== 'function') {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (...args: unknown[]) => {
        parses.inside = true;
        try {
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        } finally {
          parses.inside = false;
        }
      };
    },
  });
}

it('builds ab_test.changed from the worker’s result, parsing nothing in the unit of work', async () => {
  const store = database.store;
  const made = await createAccount(store, {
    name: 'Shop',
    ownerEmail: 'owner@example.com',
    now: clock(),
    initialYaml: SHOP_YAML,
  });
  const owner = await store.getUser(made.user_id);
  if (!owner) throw new Error('no owner');
  const { secret } = await createApiKey(store, {
    user: owner,
    name: 'k',
    actor: null,
    now: clock(),
  });
  const principal = await store.findPrincipalByKeyHash(hashSecret(secret));
  if (!principal) throw new Error('no principal');
  const webhook = {
    id: 'wh_tests',
    account_id: made.account_id,
    url: 'https://hooks.example.com/tests',
    events: ['ab_test.changed' as const],
    description: '',
    secret: 'whsec_test',
    created_at: T0,
    deleted_at: null,
  };
  const audit = { account_id: made.account_id, at: T0, action: 'x', actor: null, target_id: null };
  await store.insertWebhook(webhook, { ...audit, detail: {} }, 20);

  const configs = new ConfigService(watched(store), clock, pool);
  const started = await configs.edit(principal, {
    operations: [
      { start_ab_test: [{ id: 'onboarding' }] },
      { end_ab_test: [{ id: 'bigger-button' }] },
    ],
  });
  expect(parses.inUnitOfWork).toBe(0);

  const messages = await store.listOutboxMessages(made.account_id, webhook.id, {
    limit: 10,
    after: undefined,
  });
  const data = messages.items
    .reverse()
    .map((message) => (JSON.parse(message.payload) as { data: Record<string, unknown> }).data);
  expect(data).toEqual([
    expect.objectContaining({
      ab_test: { id: 'onboarding', app: 'ios-app', status: 'running' },
      step: 'start',
      config: { id: started.result.id },
    }),
    expect.objectContaining({
      ab_test: { id: 'bigger-button', app: 'checkout', status: 'ended' },
      step: 'end',
      config: { id: started.result.id },
    }),
  ]);
});
