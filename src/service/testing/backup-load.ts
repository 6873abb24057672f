/**
 * What the backup tests share (docs/deployment.md, Backups): an account whose live config,
 * keys and history are worth keeping, edit load on a draft with the moment each edit was
 * acknowledged, and the checks of a service started on the restored data. Works against any
 * running service over HTTP, whichever database it has. Test-only.
 */
import { expect } from 'vitest';
import { createdApiKeySchema } from '../../contract/api-keys';
import { configEditResultSchema } from '../../contract/config-edit';
import { configRecordSchema, historyListSchema, type HistoryList } from '../../contract/configs';
import { checkDraft, pairEdit, problemsOf } from './crash-harness';
import { runCli } from './service-process';

/** What was there before the backup, as the API showed it. */
export interface BackupSeed {
  /** An admin key made by the operator's command line. */
  readonly key: string;
  /** A key made and one revoked through the API. */
  readonly apiMadeKey: string;
  readonly revokedKey: string;
  readonly live: { readonly id: string; readonly revision: number; readonly yaml: string };
  readonly liveHistory: HistoryList;
  /** The draft the load edits. */
  readonly draftId: string;
}

function headers(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
}

async function call(url: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/api/v1${path}`, {
    method,
    ...(body === undefined
      ? { headers: { authorization: `Bearer ${key}` } }
      : { headers: headers(key), body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/** An account and its admin key, made by the command line on `cliArgs`' data. */
export function makeAccount(cliArgs: readonly string[], env: NodeJS.ProcessEnv = {}): string {
  const account = runCli(['accounts', 'create', '--name', 'Backed up', ...cliArgs], env);
  const key = runCli(
    ['keys', 'create', '--user', String(account.user_id), '--name', 'operator', ...cliArgs],
    env,
  ).secret;
  if (typeof key !== 'string') throw new Error('no key was created');
  return key;
}

/** A published live config with its history, two more keys (one revoked) and a draft. */
export async function seedThroughApi(url: string, key: string): Promise<BackupSeed> {
  const draft = configEditResultSchema.parse(
    await call(url, key, 'POST', '/config/edit', {
      summary: 'before the backup',
      operations: [{ set: [{ path: '/notes', value: 'kept by the backup' }] }],
    }),
  );
  const published = configRecordSchema.parse(
    await call(url, key, 'POST', `/configs/${draft.id}/publish`, { summary: 'v-backup' }),
  );
  const live = configRecordSchema.parse(await call(url, key, 'GET', '/configs/live'));
  expect(live.id).toBe(published.id);
  const liveHistory = historyListSchema.parse(
    await call(url, key, 'GET', `/configs/${live.id}/history`),
  );
  const apiMade = createdApiKeySchema.parse(
    await call(url, key, 'POST', '/api-keys', { name: 'made through the API' }),
  );
  const revoked = createdApiKeySchema.parse(
    await call(url, key, 'POST', '/api-keys', { name: 'revoked before' }),
  );
  await call(url, key, 'DELETE', `/api-keys/${revoked.id}`);
  const loadDraft = configEditResultSchema.parse(
    await call(url, key, 'POST', '/config/edit', {
      summary: 'the draft under load',
      operations: [{ set: [{ path: '/notes', value: 'load' }] }],
    }),
  );
  return {
    key,
    apiMadeKey: apiMade.secret,
    revokedKey: revoked.secret,
    live: { id: live.id, revision: live.revision, yaml: live.yaml },
    liveHistory,
    draftId: loadDraft.id,
  };
}

export interface EditLoad {
  /** Each acknowledged edit's app id and when its 200 arrived (performance.now()). */
  readonly acknowledged: readonly { readonly id: string; readonly at: number }[];
  /** Resolves once `count` edits more than now have been acknowledged. */
  untilMoreAcknowledged(count: number): Promise<void>;
  stop(): Promise<void>;
}

/** `clients` concurrent writers, each adding a pair of apps to the draft per edit. */
export function startEditLoad(url: string, seed: BackupSeed, clients: number): EditLoad {
  const acknowledged: { id: string; at: number }[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let running = true;
  let sequence = 0;
  const client = async () => {
    while (running) {
      const id = `app-${sequence++}`;
      const response = await fetch(`${url}/api/v1/config/edit`, {
        method: 'POST',
        headers: headers(seed.key),
        body: JSON.stringify(pairEdit(seed.draftId, id)),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`edit ${id}: ${response.status} ${text}`);
      acknowledged.push({ id, at: performance.now() });
      for (const waiter of waiters.filter((each) => acknowledged.length >= each.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const running_ = Promise.all(Array.from({ length: clients }, client));
  running_.catch(() => undefined);
  return {
    acknowledged,
    untilMoreAcknowledged(count) {
      const target = acknowledged.length + count;
      return Promise.race([
        new Promise<void>((resolve) => waiters.push({ count: target, resolve })),
        running_.then(() => {
          throw new Error('the load stopped');
        }),
      ]);
    },
    async stop() {
      running = false;
      await running_;
    },
  };
}

/**
 * Checks a service started on restored data: every edit acknowledged before `since` is in
 * the draft, none half applied, the live config and its history as they were, the keys as
 * they were (revoked stays revoked). Returns the draft's revision in the copy.
 */
export async function expectRestored(
  url: string,
  seed: BackupSeed,
  acknowledgedBefore: ReadonlySet<string>,
): Promise<number> {
  const live = configRecordSchema.parse(await call(url, seed.key, 'GET', '/configs/live'));
  expect({ id: live.id, revision: live.revision, yaml: live.yaml }).toEqual(seed.live);
  expect(
    historyListSchema.parse(await call(url, seed.key, 'GET', `/configs/${live.id}/history`)),
  ).toEqual(seed.liveHistory);

  const draft = configRecordSchema.parse(
    await call(url, seed.key, 'GET', `/configs/${seed.draftId}`),
  );
  const newest = historyListSchema.parse(
    await call(url, seed.key, 'GET', `/configs/${seed.draftId}/history`),
  )[0];
  expect(newest).toMatchObject({ config_id: seed.draftId, revision: draft.revision });
  const check = checkDraft(
    { integrity: 'ok', yaml: draft.yaml, revision: draft.revision, historyRows: draft.revision },
    acknowledgedBefore,
  );
  expect(problemsOf(check)).toEqual([]);

  const status = async (key: string) =>
    (await fetch(`${url}/api/v1/auth/status`, { headers: { authorization: `Bearer ${key}` } }))
      .status;
  expect(await status(seed.key)).toBe(200);
  expect(await status(seed.apiMadeKey)).toBe(200);
  expect(await status(seed.revokedKey)).toBe(401);
  return draft.revision;
}
