/**
 * Config text at rest: 20 published versions of a 10,000-app config (each renames one app,
 * so none repeats another) written by the store's unit of work into a fresh SQLite file.
 * Judged: the bytes stored per version ÷ its text's. Printed: the file's growth per version
 * (after a checkpoint, pages included), and the time to compress and to inflate one text.
 */
import { brotliDecompressSync } from 'node:zlib';
import { largeConfigText } from '../../src/configs/testing/large-config';
import { packText } from '../../src/service/store/configs/stored-text';
import { openDatabase } from '../../src/service/store/database';
import { SqliteStore } from '../../src/service/store/sqlite-store';
import { createAccount } from '../../src/service/testing/made-at';
import { judged, median, printed, round, type Figure } from '../lib/figures';
import { benchDataDir } from '../lib/seed';

const APPS = 10_000;
const VERSIONS = 20;
const STORED_BAR = { max: 25, text: '≤ 25 %' };
const AT = '2026-11-22T10:00:00.000Z';

/** The config with app `n` renamed: the same size, different text. */
function version(base: string, n: number): string {
  return base.replace(`name: App number ${n}\n`, `name: App number ${n} (renamed)\n`);
}

export async function benchStoredText(): Promise<Figure[]> {
  const base = largeConfigText(APPS);
  const textBytes = Buffer.byteLength(base);
  const db = openDatabase(benchDataDir());
  const store = new SqliteStore(db);
  try {
    const account = await createAccount(store, {
      name: 'Stored text',
      ownerEmail: 'owner@example.com',
      now: new Date(AT),
    });
    const fileBytes = () => {
      db.pragma('wal_checkpoint(TRUNCATE)');
      const pages = Number(db.pragma('page_count', { simple: true }));
      return pages * Number(db.pragma('page_size', { simple: true }));
    };
    const before = fileBytes();
    const compressMs: number[] = [];
    for (let n = 0; n < VERSIONS; n++) {
      const yaml = version(base, n);
      const start = performance.now();
      packText(yaml);
      compressMs.push(performance.now() - start);
      await store.changeConfigs(account.account_id, {}, (tx) => {
        tx.insert({
          id: `cfg_version_${n}`,
          kind: 'published',
          label: `Version ${n}`,
          yaml,
          revision: 1,
          base_config_id: null,
          valid: true,
          error_count: 0,
          warning_count: 0,
          issues: [],
          created_at: AT,
          updated_at: AT,
          published_at: AT,
        });
        tx.setLive(`cfg_version_${n}`, AT);
      });
    }
    const growth = (fileBytes() - before) / VERSIONS;
    const rows = db
      .prepare("SELECT yaml, yaml_packed FROM configs WHERE id LIKE 'cfg_version_%'")
      .all() as { yaml: string; yaml_packed: Buffer | null }[];
    const stored = median(
      rows.map((row) => Buffer.byteLength(row.yaml) + (row.yaml_packed?.length ?? 0)),
    );
    const inflateMs = rows.map((row) => {
      const start = performance.now();
      brotliDecompressSync(row.yaml_packed ?? Buffer.alloc(0));
      return performance.now() - start;
    });
    const percent = (bytes: number) => round((bytes / textBytes) * 100, 1);
    return [
      judged(
        `stored bytes per published version ÷ its text, ${APPS.toLocaleString('en')} apps`,
        percent(stored),
        `% (${Math.round(stored / 1024)} of ${Math.round(textBytes / 1024)} KiB)`,
        STORED_BAR,
      ),
      printed(
        `SQLite file growth per published version ÷ its text, ${APPS.toLocaleString('en')} apps`,
        percent(growth),
        `% (${Math.round(growth / 1024)} KiB)`,
      ),
      printed(
        'compress one 10,000-app text (brotli 5), median',
        round(median(compressMs), 1),
        'ms',
      ),
      printed('inflate one 10,000-app text, median', round(median(inflateMs), 1), 'ms'),
    ];
  } finally {
    await store.close();
  }
}
