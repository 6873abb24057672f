/**
 * The unit of work of the Store interface (`changeConfigs`), on both stores (Vitest projects
 * `node` and `postgres`): all of it or nothing, the declared reads, writes seen by the later
 * steps of the same unit, and units of one account one after another.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CreatedAccount } from '../domain/accounts';
import { createAccount } from '../testing/made-at';
import { openTestStore, testStoreKind, type TestStore } from '../testing/test-store';
import type { ConfigRecordRow, NewConfig } from './records';

let database: TestStore;
let account: CreatedAccount;

beforeEach(async () => {
  database = await openTestStore();
  account = await createAccount(database.store, {
    name: 'Units of work',
    ownerEmail: 'owner@example.com',
    now: new Date('2026-11-22T10:00:00.000Z'),
  });
});
afterEach(async () => {
  await database.dispose();
});

function draftFrom(live: ConfigRecordRow, id: string): Omit<NewConfig, 'account_id'> {
  return {
    id,
    kind: 'draft',
    label: `Draft ${id}`,
    yaml: live.yaml,
    revision: 1,
    base_config_id: live.id,
    valid: true,
    error_count: 0,
    warning_count: 0,
    issues: [],
    created_at: '2026-11-22T10:00:01.000Z',
    updated_at: '2026-11-22T10:00:01.000Z',
    published_at: null,
  };
}

async function liveConfig(): Promise<ConfigRecordRow> {
  const config = await database.store.getConfig(account.account_id, account.live_config_id);
  if (!config) throw new Error('no live config');
  return config;
}

describe(`a unit of work (${testStoreKind()})`, () => {
  it('reads the live config and the declared configs', async () => {
    const live = await liveConfig();
    const seen = await database.store.changeConfigs(account.account_id, { live: true }, (tx) => {
      const id = tx.liveId();
      return id === undefined ? undefined : tx.get(id);
    });
    expect(seen).toEqual(live);
    const byId = await database.store.changeConfigs(
      account.account_id,
      { ids: [live.id, 'cfg_missing'] },
      (tx) => [tx.get(live.id)?.id, tx.get('cfg_missing')],
    );
    expect(byId).toEqual([live.id, undefined]);
  });

  it('refuses to read a config it did not declare, and writes nothing', async () => {
    const live = await liveConfig();
    const attempt = database.store.changeConfigs(account.account_id, { ids: [] }, (tx) => {
      tx.insert(draftFrom(live, 'cfg_before_the_read'));
      return tx.get(live.id);
    });
    await expect(attempt).rejects.toThrow(/without declaring it/);
    expect(await database.store.getConfig(account.account_id, 'cfg_before_the_read')).toBe(
      undefined,
    );
  });

  it('leaves nothing behind when the work throws after writing', async () => {
    const live = await liveConfig();
    const attempt = database.store.changeConfigs(account.account_id, { live: true }, (tx) => {
      tx.insert(draftFrom(live, 'cfg_doomed'));
      tx.setLive('cfg_doomed', new Date().toISOString());
      tx.addHistory({
        config_id: 'cfg_doomed',
        account_id: account.account_id,
        action: 'edit',
        at: '2026-11-22T10:00:01.000Z',
        revision: 1,
        summary: null,
        api_key_id: null,
        api_key_name: null,
        actor_email: null,
        operations: [],
        applied_paths: [],
      });
      throw new Error('refused half way');
    });
    await expect(attempt).rejects.toThrow('refused half way');
    expect(await database.store.getLiveId(account.account_id)).toBe(live.id);
    expect(await database.store.getConfig(account.account_id, 'cfg_doomed')).toBe(undefined);
    expect(
      (
        await database.store.history(account.account_id, 'cfg_doomed', {
          limit: 200,
          after: undefined,
        })
      ).items,
    ).toEqual([]);
  });

  it('sees its own writes: a new live id, an updated row, a closed one gone', async () => {
    const live = await liveConfig();
    await database.store.changeConfigs(account.account_id, {}, (tx) => {
      tx.insert(draftFrom(live, 'cfg_a'));
    });
    const seen = await database.store.changeConfigs(
      account.account_id,
      { ids: ['cfg_a'], live: true },
      (tx) => {
        tx.update('cfg_a', {
          yaml: 'apps: []\n',
          revision: 2,
          valid: false,
          error_count: 1,
          warning_count: 0,
          issues: [],
          updated_at: '2026-11-22T10:00:02.000Z',
        });
        const updated = tx.get('cfg_a');
        tx.setLive('cfg_a', new Date().toISOString());
        const liveAfter = tx.liveId();
        tx.close('cfg_a', 'discarded', '2026-11-22T10:00:03.000Z');
        return {
          revision: updated?.revision,
          valid: updated?.valid,
          liveAfter,
          closed: tx.get('cfg_a'),
        };
      },
    );
    expect(seen).toEqual({ revision: 2, valid: false, liveAfter: 'cfg_a', closed: undefined });
    expect(await database.store.getLiveId(account.account_id)).toBe('cfg_a');
  });

  it('runs the units of work of one account one after another', async () => {
    const live = await liveConfig();
    await database.store.changeConfigs(account.account_id, {}, (tx) => {
      tx.insert(draftFrom(live, 'cfg_counter'));
    });
    // Each unit reads the revision and writes it + 1: any overlap would lose an increment.
    const increments = 40;
    await Promise.all(
      Array.from({ length: increments }, () =>
        database.store.changeConfigs(account.account_id, { ids: ['cfg_counter'] }, (tx) => {
          const row = tx.get('cfg_counter');
          if (!row) throw new Error('the counter is gone');
          tx.update(row.id, { ...row, revision: row.revision + 1 });
        }),
      ),
    );
    expect((await database.store.getConfig(account.account_id, 'cfg_counter'))?.revision).toBe(
      1 + increments,
    );
  });
});
