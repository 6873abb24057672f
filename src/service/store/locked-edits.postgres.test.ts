/**
 * PostgreSQL: an edit that lost its race is computed again while its unit of work holds a
 * pooled connection and the account's lock; a merge then reads the history. It must read it
 * on that connection: with as many such units as the pool has connections, a read that
 * waited for another connection would wait forever.
 */
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { EditPool } from '../edit-work/edit-pool';
import type { EditTask, EditTaskResult } from '../edit-work/edit-task';
import type { Principal } from './records';
import type { Store } from './store';
import { CREATE_APP } from '../testing/api';
import { createAccount, createApiKey } from '../testing/made-at';
import { openTestStore, TEST_POOL_SIZE, type TestStore } from '../testing/test-store';
import { hashSecret } from '../domain/api-key-secrets';
import { ConfigService } from '../domain/config-service';

const ACCOUNTS = 10;
const clock = () => new Date('2026-11-22T10:00:00.000Z');

/** The real pool; before an account's first computation, `race` stores a change of its own. */
class RacedPool extends EditPool {
  private readonly raced = new Set<string>();
  race: (accountId: string) => Promise<void> = async () => undefined;

  override async run(accountId: string, task: EditTask): Promise<EditTaskResult> {
    if (!this.raced.has(accountId)) {
      this.raced.add(accountId);
      await this.race(accountId);
    }
    return super.run(accountId, task);
  }
}

let database: TestStore;
let pools: EditPool[];
beforeEach(async () => {
  database = await openTestStore();
  pools = [];
});
afterEach(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  await database.dispose();
});

it('completes merging edits computed under the lock, more at once than the pool has connections', async () => {
  const store = database.store;
  const accounts: { accountId: string; principal: Principal; draftId: string }[] = [];
  const plain = new EditPool({ workers: 1, cacheBytes: 16 * 1024 * 1024 });
  const raced = new RacedPool({ workers: 1, cacheBytes: 16 * 1024 * 1024 });
  pools.push(plain, raced);
  const others = new ConfigService(store, clock, plain);
  for (let i = 0; i < ACCOUNTS; i++) {
    const made = await createAccount(store, {
      name: `Account ${i}`,
      ownerEmail: `owner${i}@example.com`,
      now: clock(),
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
    const draft = await others.edit(principal, { operations: [CREATE_APP('a')], summary: 'A' });
    await others.edit(principal, {
      config_id: draft.result.id,
      operations: [CREATE_APP('b')],
      summary: 'B',
    });
    accounts.push({ accountId: made.account_id, principal, draftId: draft.result.id });
  }

  // Each edit's first computation loses to another edit of its draft, so the second attempt
  // runs under the lock. Those units are held at the account's lock from another connection
  // until as many wait as the pool has connections, then all go on at once.
  const holder = new pg.Client({ connectionString: database.postgresUrl });
  await holder.connect();
  try {
    raced.race = async (accountId) => {
      const account = accounts.find((each) => each.accountId === accountId);
      if (!account) return;
      await others.edit(account.principal, {
        config_id: account.draftId,
        operations: [CREATE_APP('theirs')],
        summary: 'Theirs',
      });
    };
    await holder.query('BEGIN');
    const gated = gatedStore(store, async () => {
      await holder.query('SELECT id FROM accounts WHERE id = ANY($1) FOR UPDATE', [
        accounts.map((account) => account.accountId),
      ]);
    });
    const configs = new ConfigService(gated, clock, raced);
    const edits = accounts.map((account) =>
      configs.edit(account.principal, {
        config_id: account.draftId,
        base_revision: 1,
        operations: [CREATE_APP('mine')],
        summary: 'Mine',
      }),
    );
    await waitingOn(holder, Math.min(ACCOUNTS, TEST_POOL_SIZE));
    await holder.query('COMMIT');
    const outcomes = await Promise.all(edits);
    expect(outcomes.map((outcome) => outcome.revision)).toEqual(accounts.map(() => 4));
  } finally {
    await holder.end();
  }
}, 30_000);

/**
 * The store, whose locked units of work wait until every account's edit has asked for one
 * (`first` runs once, as the last asks): so they all come to the lock together.
 */
function gatedStore(store: Store, first: () => Promise<void>): Store {
  let asked = 0;
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return new Proxy(store, {
    get(target, property) {
      if (property === 'changeConfigsWhileLocked') {
        return async (...args: Parameters<NonNullable<Store['changeConfigsWhileLocked']>>) => {
          asked += 1;
          if (asked === ACCOUNTS) await first().then(open);
          await opened;
          return target.changeConfigsWhileLocked?.(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Resolves once `count` other backends wait for a lock `client`'s transaction holds. */
async function waitingOn(client: pg.Client, count: number): Promise<void> {
  for (;;) {
    const { rows } = await client.query(
      `SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted
          AND transactionid::text = pg_current_xact_id()::text`,
    );
    if (rows.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
