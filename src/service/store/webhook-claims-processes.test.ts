/**
 * Several processes on one SQLite file claiming webhook deliveries at once (two `serve`s on
 * one file each run a sender): no delivery is claimed by two of them, and each endpoint's
 * deliveries are still sent in order. Each process waits until all have started, so that
 * they race rather than take turns.
 */
import { execFile } from 'node:child_process';

import { mkdtempSync, rmSync } from 'node:fs';

import { tmpdir } from 'node:os';

import { join } from 'node:path';

import { fileURLToPath } from 'node:url';

import { promisify } from 'node:util';

import { afterEach, describe, expect, it } from 'vitest';

import { openDatabase } from './database';

import { SqliteStore } from './sqlite-store';

import { testDelivery } from '../domain/webhook-records';
import type { WebhookRecord } from './records';

const MODULES = {
  database: fileURLToPath(new URL('./database.ts', import.meta.url)),
  store: fileURLToPath(new URL('./sqlite-store.ts', import.meta.url)),
};
const PROCESSES = 4;
const ENDPOINTS = 10;
const PER_ENDPOINT = 20;
const AT = '2026-11-22T10:00:00.000Z';

/** One sender: claims two at a time and marks them delivered until nothing is left. */
const SENDER = `
const [databaseModule, storeModule, dataDir, processes, now] = process.argv.slice(1);
const { openDatabase } = await import(databaseModule);
const { SqliteStore } = await import(storeModule);
const { readdirSync, writeFileSync } = await import('node:fs');
const store = new SqliteStore(openDatabase(dataDir));
// A barrier: no process claims before all have started, however slowly each one loads.
writeFileSync(dataDir + '/ready-' + process.pid, '');
const ready = () => readdirSync(dataDir).filter((name) => name.startsWith('ready-')).length;
while (ready() < Number(processes)) await new Promise((r) => setTimeout(r, 1));
const sent = [];
for (let idle = 0; idle < 20; ) {
  const claimed = await store.claimDueOutbox(now, 2, 60000);
  if (claimed.length === 0) { idle += 1; await new Promise((r) => setTimeout(r, 2)); continue; }
  idle = 0;
  for (const delivery of claimed) {
    // The monotonic clock is the machine's: comparable across processes.
    sent.push([delivery.id, delivery.webhook_id, String(process.hrtime.bigint())]);
    // Sending takes a while, as it does over HTTP: the lock is free for the others meanwhile.
    await new Promise((r) => setTimeout(r, 1));
    await store.recordOutboxAttempt(delivery.id, {
      at: now, delivered: true, response_status: 200, error: null, next_attempt_at: null,
    });
  }
}
await store.close();
process.stdout.write(JSON.stringify(sent));
`;

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

async function fileWithDeliveries(dir: string): Promise<Map<string, string[]>> {
  const db = openDatabase(dir);
  db.prepare(
    "INSERT INTO accounts (id, name, account_type, idp_organization_id, created_at) VALUES ('acc_1', 'A', 'standard', 'org_1', ?)",
  ).run(AT);
  const store = new SqliteStore(db);
  const queued = new Map<string, string[]>();
  try {
    for (let n = 0; n < ENDPOINTS; n++) {
      const webhook: WebhookRecord = {
        id: `wh_${n}`,
        account_id: 'acc_1',
        url: `https://hooks.example.com/${n}`,
        events: ['config.published'],
        description: '',
        secret: 'whsec_c2VjcmV0',
        created_at: AT,
        deleted_at: null,
      };
      await store.insertWebhook(
        webhook,
        {
          account_id: 'acc_1',
          at: AT,
          action: 'webhook.create',
          actor: null,
          target_id: webhook.id,
          detail: {},
        },
        20,
      );
      const ids: string[] = [];
      for (let i = 0; i < PER_ENDPOINT; i++) {
        const delivery = testDelivery(webhook, AT);
        await store.insertOutboxMessage(delivery);
        ids.push(delivery.id);
      }
      queued.set(webhook.id, ids);
    }
  } finally {
    await store.close();
  }
  return queued;
}

describe('webhook claims on SQLite', () => {
  it('never give one delivery to two processes on the file, and keep each endpoint in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'provisioning-webhook-claims-'));
    dataDir = dir;
    const queued = await fileWithDeliveries(dir);
    const runs = Array.from({ length: PROCESSES }, () =>
      promisify(execFile)(process.execPath, [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        SENDER,
        MODULES.database,
        MODULES.store,
        dir,
        String(PROCESSES),
        AT,
      ]),
    );
    const outputs = await Promise.all(runs);
    const byProcess = outputs.map(
      (output) => JSON.parse(output.stdout) as [string, string, string][],
    );
    const sent = byProcess.flat();
    expect(sent).toHaveLength(ENDPOINTS * PER_ENDPOINT);
    expect(new Set(sent.map(([id]) => id)).size).toBe(ENDPOINTS * PER_ENDPOINT);
    // More than one process took part.
    expect(byProcess.filter((list) => list.length > 0).length).toBeGreaterThan(1);
    // In order per endpoint: by when each was claimed, across processes.
    for (const [webhook, order] of queued) {
      const sentOrder = sent
        .filter(([, id]) => id === webhook)
        .sort((a, b) => (BigInt(a[2]) < BigInt(b[2]) ? -1 : 1))
        .map(([id]) => id);
      expect(sentOrder).toEqual(order);
    }
  }, 60_000);
});
