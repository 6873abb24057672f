/**
 * Live changes on SQLite: this process's units of work announce their account after commit,
 * and only those that change what apps read; another connection's or process's commits on
 * the same file (a second store, the command line) are announced as `null` within the poll.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CreatedAccount } from '../../domain/accounts';
import { createAccount } from '../../testing/made-at';
import { openDatabase } from '../database';
import { SqliteStore } from '../sqlite-store';
import {
  activateLive,
  addDraft,
  listenTo,
  type LiveChangeLog,
} from '../../testing/live-change-log';
import { activateInChild, runCli } from '../../testing/service-process';
import { openTestStore, type TestStore } from '../../testing/test-store';
import { DATA_VERSION_POLL_MS } from './live-changes-sqlite';

let database: TestStore;
let account: CreatedAccount;
let log: LiveChangeLog;
const cleanUps: (() => Promise<void> | void)[] = [];

beforeEach(async () => {
  database = await openTestStore();
  account = await createAccount(database.store, {
    name: 'Live changes',
    ownerEmail: 'owner@example.com',
    now: new Date(),
  });
  log = listenTo(database.store.liveChanges);
  // The watch announces `null` once as it begins.
  await log.next(null);
});
afterEach(async () => {
  log.stop();
  for (const cleanUp of cleanUps.splice(0)) await cleanUp();
  await database.dispose();
});

describe('live changes on SQLite', () => {
  it('announces the account after a unit of work that makes a config live commits', async () => {
    await activateLive(database.store, account.account_id);
    expect(log.heard.at(-1)).toBe(account.account_id);
  });

  it('announces nothing for a unit of work that changes no live config, or rolls back', async () => {
    const before = log.heard.length;
    await addDraft(database.store, account.account_id, 'cfg_draft_only');
    await expect(
      database.store.changeConfigs(account.account_id, { live: true }, (tx) => {
        tx.setLive(tx.liveId() ?? '', new Date().toISOString());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await log.quietFor(DATA_VERSION_POLL_MS * 3)).toEqual([]);
    expect(log.heard.length).toBe(before);
  });

  it('announces what announceLiveChange names (a revoked client key)', async () => {
    await database.store.announceLiveChange(account.account_id);
    expect(await log.next(account.account_id, 100)).toBe(account.account_id);
  });

  it('announces null when another connection on the same file commits', async () => {
    const other = new SqliteStore(openDatabase(database.dataDir));
    cleanUps.push(() => other.close());
    const started = Date.now();
    await activateLive(other, account.account_id);
    expect(await log.next(null, 2_000)).toBe(null);
    expect(Date.now() - started).toBeLessThan(1_000);
    // Its own commits it announced itself, by account, not as null as well.
    expect(await log.quietFor(DATA_VERSION_POLL_MS * 3)).toEqual([]);
  });

  it('announces null when another process publishes on the same file (a child, the CLI)', async () => {
    activateInChild(database.dataDir, account.account_id);
    expect(await log.next(null, 2_000)).toBe(null);
    runCli(['accounts', 'create', '--name', 'From the CLI', '--data-dir', database.dataDir]);
    expect(await log.next(null, 2_000)).toBe(null);
  });

  it('polls only while someone listens', async () => {
    log.stop();
    const other = new SqliteStore(openDatabase(database.dataDir));
    cleanUps.push(() => other.close());
    await activateLive(other, account.account_id);
    await new Promise((resolve) => setTimeout(resolve, DATA_VERSION_POLL_MS * 3));
    // A new listener hears the watch begin (null), not a backlog.
    log = listenTo(database.store.liveChanges);
    expect(await log.next(undefined, 1_000)).toBe(null);
    expect(await log.quietFor(DATA_VERSION_POLL_MS * 3)).toEqual([]);
  });
});
