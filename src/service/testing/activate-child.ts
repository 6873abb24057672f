/**
 * Another process's publish, for tests of changes made outside the service:
 * `node --import tsx activate-child.ts DATA_DIR ACCOUNT_ID [CONFIG_ID]` makes CONFIG_ID
 * (default: a copy of the live config) live through a store of its own (SQLite in DATA_DIR,
 * or PostgreSQL when DATABASE_URL is set), and exits. Test-only.
 */
import { openStore } from '../store/open-store';
import { activateLive } from './live-change-log';

const [dataDir, accountId, configId] = process.argv.slice(2);
if (!dataDir || !accountId)
  throw new Error('usage: activate-child.ts DATA_DIR ACCOUNT_ID [CONFIG_ID]');
const store = await openStore({ dataDir, databaseUrl: process.env.DATABASE_URL });
if (configId) {
  await store.changeConfigs(accountId, { ids: [configId] }, (tx) => {
    if (!tx.get(configId)) throw new Error(`no config ${configId}`);
    tx.setLive(configId, new Date().toISOString());
  });
} else {
  await activateLive(store, accountId);
}
await store.close();
