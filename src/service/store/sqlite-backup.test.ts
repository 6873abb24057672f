/**
 * The copy itself, on a database bigger than one step while another process commits all the
 * time: such commits make SQLite start a stepped copy over, and the copy must still end,
 * whole, with every row committed before it began and without holding the writer up.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DATABASE_FILE, openDatabase } from './database';
import { backupSqlite } from './sqlite-backup';

const root = mkdtempSync(join(tmpdir(), 'provisioning-sqlite-backup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Commits a row at a time, as fast as it can, until killed; says "writing" after the first. */
const WRITER = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1], { timeout: 5000 });
const insert = db.prepare('INSERT INTO filler (body) VALUES (?)');
const body = 'w'.repeat(200);
insert.run(body);
process.stdout.write('writing\\n');
const step = () => { insert.run(body); setImmediate(step); };
step();
`;

it('copies a database several steps long while another process keeps committing', async () => {
  const dataDir = join(root, 'data');
  const db = openDatabase(dataDir);
  // About 20 MiB: several steps of the copy, so commits land between them.
  db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const fill = db.prepare('INSERT INTO filler (body) VALUES (?)');
  db.transaction(() => {
    for (let row = 0; row < 5_000; row++) fill.run('f'.repeat(4_000));
  })();

  const writer = spawn(process.execPath, ['-e', WRITER, join(dataDir, DATABASE_FILE)], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => writer.once('exit', resolve));
  try {
    await new Promise<void>((resolve) => writer.stdout.once('data', () => resolve()));
    const before = db.prepare('SELECT COUNT(*) FROM filler').pluck().get() as number;
    const file = join(root, 'copy.sqlite');
    const report = await backupSqlite(dataDir, file, { force: false });
    const after = db.prepare('SELECT COUNT(*) FROM filler').pluck().get() as number;
    expect(report).toMatchObject({ integrity: 'ok', accounts: 0 });
    // The writer went on committing while the copy was made.
    expect(after).toBeGreaterThan(before);

    const copy = new Database(file, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const copied = copy.prepare('SELECT COUNT(*) FROM filler').pluck().get() as number;
      expect(copied).toBeGreaterThanOrEqual(before);
      expect(copied).toBeLessThanOrEqual(after);
    } finally {
      copy.close();
    }
  } finally {
    writer.kill('SIGKILL');
    await exited;
    db.close();
  }
}, 60_000);
