/**
 * The stamp that tells which accounts another process's commit concerns (both stores): it
 * moves with the live config and a revoked client key, and stays put for webhook claims and
 * key touches made through another connection.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDelivery } from '../domain/webhook-records';
import { createAccount } from '../testing/made-at';
import { openTestStore, testStoreKind, type TestStore } from '../testing/test-store';
import type { CreatedAccount } from '../domain/accounts';

const T0 = '2026-11-22T10:00:00.000Z';

let database: TestStore;
let account: CreatedAccount;

beforeEach(async () => {
  database = await openTestStore();
  account = await createAccount(database.store, {
    name: 'Streams',
    ownerEmail: 'owner@example.com',
    now: new Date(T0),
  });
});
afterEach(async () => {
  await database.dispose();
});

const audit = (action: string) => ({
  account_id: account.account_id,
  at: T0,
  action,
  actor: null,
  target_id: null,
  detail: {},
});

describe(`an account's stream stamp (${testStoreKind()})`, () => {
  it('stays put for commits that change no view or key, and moves for those that do', async () => {
    const { store } = database;
    const accountId = account.account_id;
    await store.insertClientKey(
      {
        id: 'ckey_1',
        account_id: accountId,
        name: 'App',
        key: 'ck_stamp',
        apps: null,
        created_at: T0,
        revoked_at: null,
      },
      audit('client_key.create'),
      100,
    );
    const webhook = {
      id: 'wh_stamp',
      account_id: accountId,
      url: 'https://hooks.example.com/stamp',
      events: ['config.published' as const],
      description: '',
      secret: 'whsec_test',
      created_at: T0,
      deleted_at: null,
    };
    await store.insertWebhook(webhook, audit('webhook.create'), 20);
    const before = await store.getStreamStamp(accountId);

    const other = await database.openSecondStore();
    await other.insertOutboxMessage(testDelivery(webhook, T0));
    expect(await other.claimDueOutbox(T0, 10, 30_000)).toHaveLength(1);
    expect(await store.getStreamStamp(accountId)).toBe(before);

    await other.revokeClientKey(accountId, 'ckey_1', T0, audit('client_key.revoke'));
    const revoked = await store.getStreamStamp(accountId);
    expect(revoked).not.toBe(before);

    await other.changeConfigs(accountId, { live: true }, (tx) => {
      const liveId = tx.liveId();
      const live = liveId === undefined ? undefined : tx.get(liveId);
      if (!live) throw new Error('no live config');
      tx.insert({ ...live, id: 'cfg_next', created_at: T0, updated_at: T0, published_at: T0 });
      tx.setLive('cfg_next', new Date().toISOString());
    });
    expect(await store.getStreamStamp(accountId)).not.toBe(revoked);
  });
});
