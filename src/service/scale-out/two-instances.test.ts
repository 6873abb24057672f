/**
 * Several service instances on one database: two `provisioning serve` processes,
 * started together on an empty database, share it — SQLite's file on one machine (Vitest
 * project `node`), or a PostgreSQL database, the scale-out set-up (project `postgres`).
 * Requests alternate between them, so every guarantee of the concurrency tests must hold
 * across processes: no lost edit, each revision once, one If-Match winner, exactly one live
 * config, and a key revoked through one instance fails on the other at its next request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { etagOf } from '../../contract/configs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { configEditResultSchema } from '../../contract/config-edit';
import { CREATE_APP, dataOf, type EditBody } from '../testing/api';
import { fetchEndpoint, fetchOk, problemOf, successOf, type Answer } from '../testing/http';
import { adminQuery, uniqueName, withDatabase } from '../testing/postgres-cluster';
import { runCli, spawnService, type ServiceProcess } from '../testing/service-process';
import { testStoreKind } from '../testing/test-store';

const CLIENTS = 20;
const EDITS_PER_CLIENT = 10;

const kind = testStoreKind();
let storeArgs: string[] = [];
let env: NodeJS.ProcessEnv = {};
let cleanUp: () => Promise<void> = async () => undefined;
let instances: ServiceProcess[] = [];
let adminKey = '';
let output: string[] = [];

/** The instance a request goes to: the two in turn, as a round-robin load balancer would. */
const instance = (n: number): string => (instances[n % instances.length] as ServiceProcess).url;

beforeAll(async () => {
  if (kind === 'postgres') {
    const database = uniqueName('scale');
    const clusterUrl = inject('postgresUrl');
    await adminQuery(clusterUrl, `CREATE DATABASE ${database}`);
    env = { DATABASE_URL: withDatabase(clusterUrl, database) };
    cleanUp = () => adminQuery(clusterUrl, `DROP DATABASE ${database} WITH (FORCE)`);
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-two-'));
    storeArgs = ['--data-dir', dataDir];
    cleanUp = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  env = { ...env, RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' };
  // Both start at once on an empty database: the migrations must run once, not twice.
  output = [];
  instances = await Promise.all([
    spawnService(storeArgs, env, output),
    spawnService(storeArgs, env, output),
  ]);
  const account = runCli(['accounts', 'create', '--name', 'Scale-out', ...storeArgs], env);
  adminKey = String(
    runCli(
      ['keys', 'create', '--user', String(account.user_id), '--name', 'admin', ...storeArgs],
      env,
    ).secret,
  );
}, 120_000);

afterAll(async () => {
  for (const running of instances) running.child.kill('SIGTERM');
  await Promise.all(instances.map((running) => running.exited));
  await cleanUp();
});

async function newKeys(count: number): Promise<string[]> {
  const created = await Promise.all(
    Array.from({ length: count }, (_, n) =>
      fetchOk(instance(n), adminKey, 'createApiKey', { payload: { name: `Client ${n}` } }),
    ),
  );
  return created.map((key) => key.secret);
}

function postEdit(n: number, key: string, body: EditBody, headers?: Record<string, string>) {
  return fetchEndpoint(instance(n), key, 'editConfig', {
    payload: body,
    ...(headers ? { headers } : {}),
  });
}

async function newDraft(summary: string) {
  return successOf(
    'editConfig',
    await postEdit(0, adminKey, {
      operations: [CREATE_APP(uniqueName('seed').replace(/_/g, '-'))],
      summary,
    }),
  );
}

const serverErrors = (answers: readonly Answer[]) =>
  answers.filter((answer) => answer.status >= 500).map((answer) => answer.body);

describe(`two instances on one ${kind === 'postgres' ? 'PostgreSQL database' : 'SQLite file'}`, () => {
  it('both started on the empty database, and both answer for the same account', async () => {
    expect(instances).toHaveLength(2);
    expect(instances[0]?.url).not.toBe(instances[1]?.url);
    const [first, second] = await Promise.all(
      [0, 1].map((n) => fetchOk(instance(n), adminKey, 'getAuthStatus')),
    );
    expect(first?.account_id).toBeDefined();
    expect(first?.account_id).toBe(second?.account_id);
    expect(output.join('')).not.toMatch(/error/i);
  });

  it(`${CLIENTS} clients × ${EDITS_PER_CLIENT} create_app edits across both: every one lands, once`, async () => {
    const draft = await newDraft('The draft');
    const keys = await newKeys(CLIENTS);
    const started = performance.now();
    const answers = await Promise.all(
      keys.flatMap((key, client) =>
        Array.from({ length: EDITS_PER_CLIENT }, (_, n) =>
          postEdit(client * EDITS_PER_CLIENT + n, key, {
            operations: [CREATE_APP(`app-${client}-${n}`)],
            config_id: draft.id,
            summary: `Client ${client}, edit ${n}`,
          }),
        ),
      ),
    );
    const elapsed = performance.now() - started;
    const total = CLIENTS * EDITS_PER_CLIENT;
    console.info(
      `[two instances, ${kind}] ${total} concurrent edits of one draft in ${elapsed.toFixed(0)} ms (${((total / elapsed) * 1000).toFixed(0)} edits/s)`,
    );

    expect(serverErrors(answers)).toEqual([]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(total).fill(200));
    const revisions = answers
      .map((answer) => configEditResultSchema.parse(answer.body).revision ?? 0)
      .sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: total }, (_, i) => i + 2));

    // Both instances read the same result.
    const records = await Promise.all(
      [0, 1].map((n) => fetchOk(instance(n), adminKey, 'getConfig', { params: { id: draft.id } })),
    );
    for (const record of records) {
      expect(record.revision).toBe(1 + total);
      const ids = (dataOf(record.yaml).apps ?? []).map((app) => String(app.id));
      expect(new Set(ids.filter((id) => id.startsWith('app-'))).size).toBe(total);
    }
    expect(records[0]?.yaml).toBe(records[1]?.yaml);
  });

  it('lets exactly one of 20 edits with the same If-Match win across both; the others get 412', async () => {
    const draft = await newDraft('The race');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        postEdit(
          n,
          adminKey,
          { operations: [CREATE_APP(`racer-${n}`)], config_id: draft.id, summary: `Racer ${n}` },
          { 'if-match': '"1"' },
        ),
      ),
    );
    expect(serverErrors(answers)).toEqual([]);
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.headers.get('etag')).toBe(etagOf(draft.id, 2));
    for (const loser of answers.filter((answer) => answer.status !== 200))
      expect(problemOf(loser, 412).code).toBe('precondition_failed');
    const record = await fetchOk(instance(1), adminKey, 'getConfig', { params: { id: draft.id } });
    expect(record.revision).toBe(2);
  });

  it('keeps exactly one live config while both publish and roll back at once', async () => {
    const drafts = [];
    for (let n = 0; n < 8; n++) drafts.push(await newDraft(`Release ${n}`));
    const published = await Promise.all(
      drafts.map((draft, n) =>
        fetchEndpoint(instance(n), adminKey, 'publishConfig', { params: { id: draft.id } }),
      ),
    );
    expect(serverErrors(published)).toEqual([]);
    const versions = published.map((answer) => successOf('publishConfig', answer));
    // Roll back to each version at once, from both instances.
    const activated = await Promise.all(
      versions.map((version, n) =>
        fetchEndpoint(instance(n + 1), adminKey, 'activateConfig', { params: { id: version.id } }),
      ),
    );
    expect(serverErrors(activated)).toEqual([]);
    expect(activated.map((answer) => answer.status)).toEqual(Array(versions.length).fill(200));

    const lists = await Promise.all(
      [0, 1].map((n) => fetchOk(instance(n), adminKey, 'listConfigs')),
    );
    for (const list of lists) {
      const live = list.filter((config) => config.live);
      expect(live).toHaveLength(1);
      expect(versions.map((version) => version.id)).toContain(live[0]?.id);
    }
    expect(lists[0]?.find((config) => config.live)?.id).toBe(
      lists[1]?.find((config) => config.live)?.id,
    );
  });

  it('refuses a key revoked through one instance on the other, at its very next request', async () => {
    for (let round = 0; round < 5; round++) {
      const created = await fetchOk(instance(round), adminKey, 'createApiKey', {
        payload: { name: `Doomed ${round}` },
      });
      // Used (and so known) on both instances first.
      for (const n of [0, 1]) await fetchOk(instance(n), created.secret, 'getAuthStatus');
      await fetchOk(instance(round), adminKey, 'revokeApiKey', { params: { id: created.id } });
      const next = await fetchEndpoint(instance(round + 1), created.secret, 'getAuthStatus');
      expect(problemOf(next, 401).detail).toMatch(/revoked/);
    }
  });

  it('refuses a key revoked by the operator command line on both instances', async () => {
    const created = await fetchOk(instance(0), adminKey, 'createApiKey', {
      payload: { name: 'Revoked by the operator' },
    });
    for (const n of [0, 1]) await fetchOk(instance(n), created.secret, 'getAuthStatus');
    runCli(['keys', 'revoke', '--id', created.id, ...storeArgs], env);
    for (const n of [0, 1]) {
      const next = await fetchEndpoint(instance(n), created.secret, 'getAuthStatus');
      expect(problemOf(next, 401).detail).toMatch(/revoked/);
    }
  });
});
