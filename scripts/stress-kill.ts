/**
 * quality.md: the server killed with SIGKILL 20 times under load. 20 clients keep sending
 * edits to one draft, each creating a pair of apps; the server is killed at a random moment
 * and restarted, 20 times. Then: the database passes `PRAGMA integrity_check`, every edit
 * that got a 200 is present, and no edit is half applied (an app's pair is always there).
 *
 * Run with `npm run test:stress` (about a minute). Prints "N passed, N failed".
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

const BIN = join(import.meta.dirname, '../bin/provisioning.js');
const KILLS = 20;
const CLIENTS = 20;
const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-stress-'));

function cli(...args: string[]): Record<string, string> {
  const result = spawnSync(process.execPath, [BIN, ...args, '--data-dir', dataDir], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as Record<string, string>;
}

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, RATE_LIMIT_RPS: '0', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.includes('"url"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on('exit', () => reject(new Error(`server exited early: ${output}`)));
  });
  return { child, url };
}

const account = cli('accounts', 'create', '--name', 'Stress');
const key = cli('keys', 'create', '--user', account.user_id as string, '--name', 'stress')
  .secret as string;
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

let failures = 0;
const acknowledged = new Set<string>();
let draftId = '';
let sequence = 0;
let fiveHundreds = 0;

for (let round = 0; round < KILLS; round++) {
  const { child, url } = await startServer();
  if (!draftId) {
    const response = await fetch(`${url}/api/v1/config/edit`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        summary: 'stress draft',
        operations: [{ set: [{ path: '/notes', value: 'stress' }] }],
      }),
    });
    draftId = ((await response.json()) as { id: string }).id;
  }
  let running = true;
  const client = async () => {
    while (running) {
      const id = `app-${sequence++}`;
      try {
        const response = await fetch(`${url}/api/v1/config/edit`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            config_id: draftId,
            summary: `add ${id}`,
            operations: [
              {
                create_app: [
                  { id, name: id, platform: 'web' },
                  { id: `${id}-pair`, name: id, platform: 'ios' },
                ],
              },
            ],
          }),
        });
        if (response.status === 200) acknowledged.add(id);
        if (response.status >= 500) fiveHundreds++;
      } catch {
        return; // the server is gone
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 1200));
  child.kill('SIGKILL');
  running = false;
  await Promise.all(clients);
  await exited;
}

const db = new Database(join(dataDir, 'provisioning.sqlite'));
const integrity = db.pragma('integrity_check', { simple: true });
const row = db.prepare('SELECT yaml FROM configs WHERE id = ?').get(draftId) as { yaml: string };
db.close();
const apps = ((parse(row.yaml) as { apps?: { id: string }[] }).apps ?? []).map((app) => app.id);
const present = new Set(apps);

const checks: [string, boolean][] = [
  [`integrity_check is ok (${String(integrity)})`, integrity === 'ok'],
  [`no 5xx (${fiveHundreds})`, fiveHundreds === 0],
  [
    `all ${acknowledged.size} acknowledged edits are present`,
    [...acknowledged].every((id) => present.has(id) && present.has(`${id}-pair`)),
  ],
  [
    'no edit is half applied',
    apps.filter((id) => !id.endsWith('-pair')).every((id) => present.has(`${id}-pair`)) &&
      apps
        .filter((id) => id.endsWith('-pair'))
        .every((id) => present.has(id.slice(0, -'-pair'.length))),
  ],
  [`unique app ids (${apps.length} apps)`, present.size === apps.length],
];
for (const [name, ok] of checks) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
  if (!ok) failures++;
}
rmSync(dataDir, { recursive: true, force: true });
console.log(`${checks.length - failures} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
