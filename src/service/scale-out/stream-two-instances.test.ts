/**
 * Push across processes: two `provisioning serve` processes on one database, a stream open
 * on one and the publish made through the other; the event must arrive within the second.
 * On PostgreSQL (Vitest project `postgres`) the word goes by NOTIFY / LISTEN; on SQLite
 * (project `node`) by the other process's commit moving `PRAGMA data_version`. A process
 * that is no server at all (a script with a store of its own) is heard the same way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_BASE_PATH } from '../../contract/endpoints';
import { deliveryViewSchema } from '../../contract/delivery';
import { fetchOk } from '../testing/http';
import { adminQuery, uniqueName, withDatabase } from '../testing/postgres-cluster';
import {
  activateInChild,
  runCli,
  spawnService,
  type ServiceProcess,
} from '../testing/service-process';
import { openSse, type SseStream } from '../testing/sse-client';
import { testStoreKind } from '../testing/test-store';

const kind = testStoreKind();
let storeArgs: string[] = [];
let dataDir = '';
let env: NodeJS.ProcessEnv = {};
let cleanUp: () => Promise<void> = async () => undefined;
let instances: ServiceProcess[] = [];
let adminKey = '';
let accountId = '';
/** The first published config with the `web` app. */
let webConfigId = '';
const streams: SseStream[] = [];

const url = (n: number) => (instances[n] as ServiceProcess).url;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'provisioning-stream-'));
  if (kind === 'postgres') {
    const database = uniqueName('stream');
    const clusterUrl = inject('postgresUrl');
    await adminQuery(clusterUrl, `CREATE DATABASE ${database}`);
    env = { DATABASE_URL: withDatabase(clusterUrl, database) };
    cleanUp = async () => {
      await adminQuery(clusterUrl, `DROP DATABASE ${database} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    };
  } else {
    storeArgs = ['--data-dir', dataDir];
    cleanUp = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  env = { ...env, RATE_LIMIT_RPS: '0', DELIVERY_RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' };
  const account = runCli(['accounts', 'create', '--name', 'Streams', ...storeArgs], env);
  accountId = String(account.account_id);
  adminKey = String(
    runCli(
      ['keys', 'create', '--user', String(account.user_id), '--name', 'admin', ...storeArgs],
      env,
    ).secret,
  );
  instances = await Promise.all([spawnService(storeArgs, env), spawnService(storeArgs, env)]);
}, 120_000);

afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const running of instances) running.child.kill('SIGTERM');
  await Promise.all(instances.map((running) => running.exited));
  await cleanUp();
});

async function subscribe(n: number, key: string, app: string): Promise<SseStream> {
  const stream = await openSse(`${url(n)}${API_BASE_PATH}/delivery/${key}/stream?app=${app}`);
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

describe(`push across two instances on one ${kind === 'postgres' ? 'PostgreSQL database' : 'SQLite file'}`, () => {
  it('a publish through one instance reaches a stream on the other within a second', async () => {
    const created = await fetchOk(url(0), adminKey, 'createClientKey', {
      payload: { name: 'Apps' },
    });
    const draft = await fetchOk(url(0), adminKey, 'editConfig', {
      payload: {
        operations: [{ create_app: [{ id: 'web', name: 'Web', platform: 'web' }] }],
        summary: 'A web app',
      },
    });
    webConfigId = (await fetchOk(url(0), adminKey, 'publishConfig', { params: { id: draft.id } }))
      .id;
    const stream = await subscribe(1, created.key, 'web');
    await stream.next();

    const next = await fetchOk(url(0), adminKey, 'editConfig', {
      payload: {
        operations: [{ update_app: [{ id: 'web', settings: { theme: 'dark' } }] }],
        summary: 'Dark',
      },
    });
    const sent = performance.now();
    const published = await fetchOk(url(0), adminKey, 'publishConfig', {
      params: { id: next.id },
    });
    const event = await stream.next(2_000);
    expect(event.at - sent).toBeLessThan(1_000);
    expect(event.id).toBe(`${published.id}:1`);
    expect(deliveryViewSchema.parse(JSON.parse(event.data)).app.settings).toEqual({
      theme: 'dark',
    });

    // A key revoked through one instance ends its streams on the other.
    await fetchOk(url(0), adminKey, 'revokeClientKey', { params: { id: created.id } });
    await stream.ended;
  });

  it('a rollback made by another process on the database (no server at all) reaches the streams', async () => {
    const created = await fetchOk(url(0), adminKey, 'createClientKey', {
      payload: { name: 'Apps 2' },
    });
    const stream = await subscribe(1, created.key, 'web');
    expect((await stream.next()).id).not.toBe(`${webConfigId}:1`);
    // Its process has committed and exited when this returns.
    activateInChild(dataDir, accountId, webConfigId, env);
    const committed = performance.now();
    const event = await stream.next(2_000);
    expect(event.at - committed).toBeLessThan(1_000);
    expect(event.id).toBe(`${webConfigId}:1`);
    expect(deliveryViewSchema.parse(JSON.parse(event.data)).app.settings).toEqual({});
  });
});
