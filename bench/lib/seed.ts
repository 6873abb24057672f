/**
 * Accounts for the bench, written straight into a fresh data directory (what
 * `provisioning accounts create` and `keys create` do) before the service starts on it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createApiKey } from '../../src/service/testing/made-at';
import { newId } from '../../src/service/ids';
import { openDatabase } from '../../src/service/store/database';
import { SqliteStore } from '../../src/service/store/sqlite-store';

export interface SeededAccount {
  readonly accountId: string;
  readonly liveConfigId: string;
  readonly adminKey: string;
}

export function benchDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'provisioning-bench-'));
}

/** One account per initial config text, each with its owner's admin key. */
export async function seedAccounts(
  dataDir: string,
  initialYamls: readonly string[],
): Promise<SeededAccount[]> {
  const store = new SqliteStore(openDatabase(dataDir));
  try {
    const accounts: SeededAccount[] = [];
    for (const [index, initialYaml] of initialYamls.entries()) {
      const now = new Date();
      const account = await createAccount(store, {
        name: `Bench ${index}`,
        ownerEmail: `bench${index}@example.com`,
        initialYaml,
        now,
      });
      const owner = await store.getUser(account.user_id);
      if (!owner) throw new Error('the owner was not created');
      const key = await createApiKey(store, { user: owner, name: 'Bench key', actor: null, now });
      accounts.push({
        accountId: account.account_id,
        liveConfigId: account.live_config_id,
        adminKey: key.secret,
      });
    }
    return accounts;
  } finally {
    await store.close();
  }
}

/** `count` drafts copied from the account's live config, as a first edit would make them. */
export async function seedDrafts(
  dataDir: string,
  account: SeededAccount,
  count: number,
): Promise<string[]> {
  const store = new SqliteStore(openDatabase(dataDir));
  try {
    return await store.changeConfigs(account.accountId, { live: true }, (tx) => {
      const live = tx.get(account.liveConfigId);
      if (!live) throw new Error('the live config is missing');
      const { account_id: _account, closed_at: _closed, closed_reason: _reason, ...copy } = live;
      const at = new Date().toISOString();
      return Array.from({ length: count }, (_, index) => {
        const id = newId('cfg_');
        tx.insert({
          ...copy,
          id,
          kind: 'draft',
          label: `Bench draft ${index}`,
          revision: 1,
          base_config_id: live.id,
          created_at: at,
          updated_at: at,
          published_at: null,
        });
        return id;
      });
    });
  } finally {
    await store.close();
  }
}
