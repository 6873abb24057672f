/**
 * Live changes on PostgreSQL: a unit of work that changes what apps read notifies on commit
 * (never on rollback), every store on the database hears it by account, and the LISTEN
 * connection comes back after it is lost, announcing `null` for what it may have missed.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { type CreatedAccount } from '../../domain/accounts';
import { createAccount } from '../../testing/made-at';
import { openPostgres } from '../postgres-database';
import { PostgresStore } from '../postgres-store';
import {
  activateLive,
  addDraft,
  listenTo,
  type LiveChangeLog,
} from '../../testing/live-change-log';
import { withSchema } from '../../testing/postgres-cluster';
import { openTestStore, type TestStore } from '../../testing/test-store';
import { LISTENER_APPLICATION_NAME, type PostgresLiveChanges } from './live-changes-postgres';

let database: TestStore;
let other: PostgresStore;
let account: CreatedAccount;
let log: LiveChangeLog;

beforeEach(async () => {
  database = await openTestStore();
  const [{ schema } = { schema: '' }] = await database.rows<{ schema: string }>(
    'SELECT current_schema() AS schema',
  );
  // A second instance on the same database: a pool, and a LISTEN connection, of its own.
  other = new PostgresStore(
    await openPostgres({ url: withSchema(inject('postgresUrl'), schema), poolSize: 2 }),
  );
  account = await createAccount(database.store, {
    name: 'Live changes',
    ownerEmail: 'owner@example.com',
    now: new Date(),
  });
  log = listenTo(database.store.liveChanges);
  // Once it listens, the watch announces null (what came before is unknown).
  await log.next(null);
});
afterEach(async () => {
  log.stop();
  await other.close();
  await database.dispose();
});

describe('live changes on PostgreSQL', () => {
  it("announces the account to this instance's listeners after commit", async () => {
    await activateLive(database.store, account.account_id);
    expect(await log.next(account.account_id)).toBe(account.account_id);
  });

  it('announces it to the listeners of another instance on the same database', async () => {
    await activateLive(other, account.account_id);
    expect(await log.next(account.account_id)).toBe(account.account_id);
    await other.announceLiveChange(account.account_id);
    expect(await log.next(account.account_id)).toBe(account.account_id);
  });

  it('announces nothing for a draft, or for a unit of work that rolls back', async () => {
    await addDraft(other, account.account_id, 'cfg_draft_only');
    await expect(
      other.changeConfigs(account.account_id, { live: true }, (tx) => {
        tx.setLive(tx.liveId() ?? '', new Date().toISOString());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await log.quietFor(300)).toEqual([]);
  });

  it('listens again after its connection is lost, and announces null for the gap', async () => {
    const admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ done: boolean }>(
        'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE $2',
        [LISTENER_APPLICATION_NAME, `%LISTEN%`],
      );
      expect(rows.length).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    expect(await log.next(null)).toBe(null);
    const changes = database.store.liveChanges as PostgresLiveChanges;
    expect(await changes.listening()).toBe(true);
    await activateLive(other, account.account_id);
    expect(await log.next(account.account_id)).toBe(account.account_id);
  });
});
