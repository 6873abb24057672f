/**
 * The first page of each list after years of use, against the same list with 10 rows: one
 * account with 10,000 published versions of a 1 MiB config, 100,000 history entries in the
 * live config's line, 100,000 audit records and 100,000 deliveries of one webhook endpoint,
 * written straight into the database; another with 10 of each. Both served by the bundled
 * service as `npm start` runs it; each page read many times, the median compared.
 */
import type Database from 'better-sqlite3';
import { largeConfigText } from '../../src/configs/testing/large-config';
import { newId } from '../../src/service/ids';
import { packText } from '../../src/service/store/configs/stored-text';
import { DEFAULT_RETENTION } from '../../src/service/retention/pruner';
import { openDatabase } from '../../src/service/store/database';
import { SqliteStore } from '../../src/service/store/sqlite-store';
import { judged, median, printed, round, type Figure } from '../lib/figures';
import { benchDataDir, seedAccounts } from '../lib/seed';
import { startService } from '../lib/service-process';

/**
 * Versions are labelled "Version N" from `firstLabel` on: `q=Version 1` then fills a page of
 * 10 on both accounts ("Version 10"…"Version 19" on the small one; on the large one its
 * 1,111 matches are all older than 8,000 others, "Version 1999" the newest of them).
 */
const LARGE = {
  versions: 10_000,
  firstLabel: 0,
  history: 100_000,
  audit: 100_000,
  deliveries: 100_000,
};
const SMALL = { versions: 10, firstLabel: 10, history: 10, audit: 10, deliveries: 10 };
const READS = 60;
/** Reads left out first: the first list read after a start pays for cold caches and JIT. */
const WARM_UP = 20;
/** Both sides read pages of the same size, so the ratio is about the table, not the page. */
const PAGE = 10;
const RATIO_BAR = { max: 2, text: '≤ 2×' };

type Sizes = typeof LARGE;

interface Seeded {
  readonly dataDir: string;
  readonly adminKey: string;
  readonly liveId: string;
  readonly webhookId: string;
}

/** The rows, in one transaction per table; the config text packed once and shared. */
function fill(db: Database.Database, accountId: string, base: string, sizes: Sizes) {
  const packed = packText(largeConfigText(6_000));
  const t0 = Date.parse('2025-01-01T00:00:00.000Z');
  const at = (n: number) => new Date(t0 + n * 1000).toISOString();
  const insertConfig = db.prepare(
    `INSERT INTO configs (id, account_id, kind, label, yaml, yaml_packed, revision, base_config_id,
       valid, error_count, warning_count, issues, created_at, updated_at, published_at)
     VALUES (?, ?, 'published', ?, '', ?, 1, ?, 1, 0, 0, '[]', ?, ?, ?)`,
  );
  const insertHistory = db.prepare(
    `INSERT INTO history (account_id, config_id, action, at, revision, summary, api_key_id,
       api_key_name, actor_email, operations, applied_paths)
     VALUES (?, ?, 'edit', ?, 1, 'A change', NULL, NULL, NULL, '[]', '[]')`,
  );
  let previous = base;
  const line: string[] = [];
  db.transaction(() => {
    for (let n = 0; n < sizes.versions; n++) {
      const id = newId('cfg_', t0 + n * 1000);
      insertConfig.run(
        id,
        accountId,
        `Version ${sizes.firstLabel + n}`,
        packed,
        previous,
        at(n),
        at(n),
        at(n),
      );
      line.push(id);
      previous = id;
    }
    for (let n = 0; n < sizes.history; n++) {
      insertHistory.run(accountId, line[n % line.length], at(n));
    }
    db.prepare('UPDATE live_configs SET config_id = ? WHERE account_id = ?').run(
      previous,
      accountId,
    );
    const insertAudit = db.prepare(
      `INSERT INTO audit_log (account_id, at, action, actor, target_id, detail, ip)
       VALUES (?, ?, 'config.edit', NULL, ?, '{}', '127.0.0.1')`,
    );
    for (let n = 0; n < sizes.audit; n++) insertAudit.run(accountId, at(n), previous);
  })();
  const webhookId = newId('wh_');
  db.transaction(() => {
    db.prepare(
      `INSERT INTO webhooks (id, account_id, url, events, description, secret, created_at)
       VALUES (?, ?, 'https://hooks.example.com/a', '["config.published"]', '', 'whsec_x', ?)`,
    ).run(webhookId, accountId, at(0));
    const insertDelivery = db.prepare(
      `INSERT INTO webhook_deliveries (id, webhook_id, account_id, event, payload, status,
         attempts, created_at, last_attempt_at, response_status)
       VALUES (?, ?, ?, 'config.published', '{}', 'delivered', 1, ?, ?, 200)`,
    );
    for (let n = 0; n < sizes.deliveries; n++) {
      insertDelivery.run(newId('msg_'), webhookId, accountId, at(n), at(n));
    }
  })();
  return { liveId: previous, webhookId };
}

async function seed(sizes: Sizes): Promise<Seeded> {
  const dataDir = benchDataDir();
  const [account] = await seedAccounts(dataDir, ['apps: []\n']);
  if (!account) throw new Error('no account was seeded');
  const db = openDatabase(dataDir);
  try {
    const { liveId, webhookId } = fill(db, account.accountId, account.liveConfigId, sizes);
    // As the service's background rounds keep it: the label index merged, step by step.
    const store = new SqliteStore(db);
    while (await store.mergeLabelIndex(DEFAULT_RETENTION.labelIndexMergePages));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.exec('ANALYZE');
    return { dataDir, adminKey: account.adminKey, liveId, webhookId };
  } finally {
    db.close();
  }
}

/** The first page's median time (PAGE items), in ms, over READS reads (after a few to warm up). */
async function firstPage(url: string, key: string): Promise<number> {
  const headers = { authorization: `Bearer ${key}` };
  const times: number[] = [];
  for (let n = 0; n < READS + WARM_UP; n++) {
    const started = performance.now();
    const answer = await fetch(`${url}${url.includes('?') ? '&' : '?'}limit=${PAGE}`, { headers });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
    if (n >= WARM_UP) times.push(performance.now() - started);
  }
  return median(times);
}

const LISTS: readonly { name: string; path: (seeded: Seeded) => string }[] = [
  { name: 'GET /configs', path: () => '/api/v1/configs' },
  { name: 'GET /configs?kind=published', path: () => '/api/v1/configs?kind=published' },
  { name: 'GET /configs?q=Version 1', path: () => '/api/v1/configs?q=Version%201' },
  { name: 'GET /configs/{live}/history', path: (s) => `/api/v1/configs/${s.liveId}/history` },
  { name: 'GET /audit', path: () => '/api/v1/audit' },
  { name: 'GET /audit?action=config.', path: () => '/api/v1/audit?action=config.' },
  {
    name: 'GET /webhooks/{id}/deliveries',
    path: (s) => `/api/v1/webhooks/${s.webhookId}/deliveries`,
  },
];

export async function benchListPages(): Promise<Figure[]> {
  process.stderr.write('bench: seeding 10,000 versions, 100,000 history, audit and deliveries…\n');
  const large = await seed(LARGE);
  const small = await seed(SMALL);
  const services = [await startService(large.dataDir), await startService(small.dataDir)];
  const [bigService, smallService] = services;
  if (!bigService || !smallService) throw new Error('the services did not start');
  const figures: Figure[] = [];
  try {
    // Every list once on both services first: the list measured first would otherwise pay
    // for the services' cold start (JIT, the file's pages) alone.
    for (const list of LISTS) {
      await firstPage(`${bigService.url}${list.path(large)}`, large.adminKey);
      await firstPage(`${smallService.url}${list.path(small)}`, small.adminKey);
    }
    for (const list of LISTS) {
      const big = await firstPage(`${bigService.url}${list.path(large)}`, large.adminKey);
      const few = await firstPage(`${smallService.url}${list.path(small)}`, small.adminKey);
      figures.push(
        judged(
          `${list.name}, first page: 10,000 versions ÷ 10 rows`,
          round(big / few, 2),
          '×',
          RATIO_BAR,
        ),
        printed(`${list.name}, first page with 10,000 versions, p50`, round(big, 2), 'ms'),
      );
    }
  } finally {
    await Promise.all(services.map((service) => service.stop()));
  }
  return figures;
}
