/**
 * Webhooks survive kill -9 (docs/webhooks.md): the deliveries a publish queued are in the
 * database with the publish, so a service killed before sending them sends them after its
 * restart; one killed in the middle of an attempt sends it again, with the same webhook-id,
 * once the attempt's lease has run out. Nothing is lost.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { CREATE_APP } from '../testing/api';
import { fetchOk } from '../testing/http';
import { runCli, spawnService, type ServiceProcess } from '../testing/service-process';
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver';
import { DATABASE_FILE } from '../store/database';

const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-webhook-crash-'));
const output: string[] = [];
let running: ServiceProcess | undefined;
let receiver: WebhookReceiver | undefined;
afterAll(async () => {
  running?.child.kill('SIGKILL');
  await running?.exited;
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);

function serve(): Promise<ServiceProcess> {
  return spawnService(
    ['--data-dir', dataDir],
    {
      RATE_LIMIT_RPS: '0',
      WEBHOOKS_ALLOW_PRIVATE: '1',
      WEBHOOKS_RETRY_SCHEDULE_MS: '100',
      // The lease is three timeouts and 5 s: 6.5 s here.
      WEBHOOKS_TIMEOUT_MS: '500',
    },
    output,
  );
}

async function kill9(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGKILL');
  await service.exited;
}

/** The outbox's ids, in the order the events happened (read from the file). */
function outboxIds(): string[] {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return (
      db.prepare('SELECT id FROM webhook_deliveries ORDER BY seq').all() as { id: string }[]
    ).map((row) => row.id);
  } finally {
    db.close();
  }
}

it('loses no delivery to kill -9, before or during its attempt', async () => {
  const account = cli('accounts', 'create', '--name', 'Crash');
  const key = cli('keys', 'create', '--user', String(account.user_id), '--name', 'crash').secret;
  if (typeof key !== 'string') throw new Error('no key was created');
  receiver = await startWebhookReceiver(200);
  await receiver.down();

  running = await serve();
  const webhook = await fetchOk(running.url, key, 'createWebhook', {
    payload: { url: receiver.url(), events: ['config.published'] },
  });
  receiver.secret = webhook.secret;
  for (const appId of ['web', 'ios', 'android']) {
    const draft = await fetchOk(running.url, key, 'editConfig', {
      payload: { operations: [CREATE_APP(appId)], summary: `Add ${appId}` },
    });
    await fetchOk(running.url, key, 'publishConfig', { params: { id: draft.id } });
  }
  // Killed between the publishes and their delivery (the receiver is down).
  await kill9(running);
  running = undefined;
  const published = outboxIds();
  expect(published).toHaveLength(3);

  await receiver.up();
  running = await serve();
  await vi.waitFor(() => expect(receiver?.accepted()).toEqual(published), {
    timeout: 20_000,
    interval: 50,
  });

  // Killed in the middle of an attempt: the receiver holds it unanswered.
  receiver.behave('hang');
  const test = await fetchOk(running.url, key, 'sendTestWebhook', {
    params: { id: webhook.id },
  });
  await vi.waitFor(() => expect(receiver?.received.at(-1)?.id).toBe(test.id), {
    timeout: 10_000,
    interval: 20,
  });
  await kill9(running);
  running = undefined;
  receiver.behave(200);
  running = await serve();
  await vi.waitFor(() => expect(receiver?.accepted()).toEqual([...published, test.id]), {
    timeout: 30_000,
    interval: 50,
  });
  for (const each of receiver.received) expect(each.verified).toBe(true);
  const deliveries = await fetchOk(running.url, key, 'listWebhookDeliveries', {
    params: { id: webhook.id },
  });
  expect(deliveries.every((each) => each.status === 'delivered')).toBe(true);
}, 120_000);
