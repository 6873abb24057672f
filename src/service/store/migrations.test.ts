/**
 * SQLite's migrations when several processes start at once on a new file (two `serve`s on
 * one file, or `serve` and the command line): every process opens it, and the tables are
 * made once. Each process waits for the same instant before it opens the file, so that
 * they race for the migration rather than take turns.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { MIGRATIONS } from './migrations';

const DATABASE_MODULE = fileURLToPath(new URL('./database.ts', import.meta.url));
const PROCESSES = 6;

const OPEN_AT = `
const [modulePath, dataDir, at] = process.argv.slice(1);
const { openDatabase } = await import(modulePath);
while (Date.now() < Number(at)) {}
openDatabase(dataDir).close();
`;

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

describe('SQLite migrations', () => {
  it('run once when several processes open a new file at the same instant', async () => {
    for (let round = 0; round < 2; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'provisioning-migrate-'));
      dataDir = dir;
      const at = String(Date.now() + 2_500);
      const runs = Array.from({ length: PROCESSES }, () =>
        promisify(execFile)(process.execPath, [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          OPEN_AT,
          DATABASE_MODULE,
          dir,
          at,
        ]),
      );
      const outcomes = await Promise.allSettled(runs);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      const db = openDatabase(dir);
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
