/**
 * Another process's publish on a SQLite file, for tests of changes made outside the
 * service: `node --import tsx activate-child.ts DATA_DIR ACCOUNT_ID [CONFIG_ID]` makes
 * CONFIG_ID (default: the live config) live in its own connection, and exits. Test-only.
 */
import { openDatabase } from '../store/database';
import { SqliteStore } from '../store/sqlite-store';
import { activateLive } from './live-change-log';

const [dataDir, accountId, configId] = process.argv.slice(2);
if (!dataDir || !accountId)
  throw new Error('usage: activate-child.ts DATA_DIR ACCOUNT_ID [CONFIG_ID]');
const store = new SqliteStore(openDatabase(dataDir));
if (configId) {
  await store.changeConfigs(accountId, { ids: [configId] }, (tx) => {
    if (!tx.get(configId)) throw new Error(`no config ${configId}`);
    tx.setLive(configId);
  });
} else {
  await activateLive(store, accountId);
}
await store.close();
