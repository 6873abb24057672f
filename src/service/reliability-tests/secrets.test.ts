/**
 * Secrets under a workload (docs/reliability.md): after many operations,
 * no API key in clear in the database file, its WAL or the logs; each secret appears in
 * exactly one response, the one that created it. Revoked and expired keys: 0 successes in
 * 1,000 requests right after (revoked through the API, and by the operator on another
 * connection to the same file while the service runs).
 */
import type { LightMyRequestResponse } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EndpointName } from '../../contract/endpoints';
import { serviceLoggerOptions } from '../app';
import { hashSecret } from '../domain/api-key-secrets';
import { main } from '../cli';
import { DATABASE_FILE } from '../store/database';
import {
  CREATE_APP,
  edit,
  expectConforming,
  manualClock,
  send,
  type CallInput,
} from '../testing/api';
import { logCollector } from '../testing/log-collector';
import { startTestService, type TestService } from '../testing/test-service';
import { reportFigure, runLength } from '../testing/run-length';

const KEYS = runLength(12, 60);
const AFTER_REVOCATION = 1_000;

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** Every byte of the database: the file, its WAL, its shared memory, a rollback journal. */
function databaseBytes(dataDir: string): Buffer {
  return Buffer.concat(
    ['', '-wal', '-shm', '-journal']
      .map((suffix) => join(dataDir, `${DATABASE_FILE}${suffix}`))
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file)),
  );
}

/** The parts of a secret that must not be stored or logged: all of it, and its random body. */
function tracesOf(secret: string): string[] {
  return [secret, secret.slice(3, 37)];
}

describe('secrets after a workload', () => {
  it(`${KEYS} keys made, used, listed and revoked: each secret only in its own 201`, async () => {
    const log = logCollector();
    service = await startTestService({
      logger: { ...serviceLoggerOptions('info'), stream: log.stream },
    });
    const responses: { name: EndpointName; response: LightMyRequestResponse }[] = [];
    const s = service;
    const call = async (key: string | undefined, name: EndpointName, input: CallInput = {}) => {
      const response = await send(s, key, name, input);
      expectConforming(name, response);
      responses.push({ name, response });
      return response;
    };

    const created: { id: string; secret: string; response: LightMyRequestResponse }[] = [];
    for (let i = 0; i < KEYS; i++) {
      const response = await call(s.adminKey, 'createApiKey', {
        payload: { name: `Key ${i}`, ...(i % 2 ? { expires_in_days: 30 } : {}) },
      });
      const body = response.json() as { id: string; secret: string };
      created.push({ id: body.id, secret: body.secret, response });
    }
    let draftId: string | undefined;
    for (const [i, key] of created.entries()) {
      await call(key.secret, 'getAuthStatus');
      await call(key.secret, 'listApiKeys');
      await call(key.secret, 'listConfigs');
      const edited = await edit(s, key.secret, {
        operations: [CREATE_APP(`app-${i}`)],
        summary: `Edit ${i}`,
        ...(draftId ? { config_id: draftId } : {}),
      });
      responses.push({ name: 'editConfig', response: edited });
      draftId ??= (edited.json() as { id: string }).id;
      await call(key.secret, 'getConfigHistory', { params: { id: draftId } });
      // Refused requests too: they are logged and answered as well.
      await call(key.secret, 'editConfig', { payload: { operations: [] } });
      await call(key.secret, 'getConfig', { params: { id: `cfg_missing_${i}` } });
    }
    await call(s.adminKey, 'publishConfig', { params: { id: draftId ?? '' } });
    for (const key of created.filter((_, i) => i % 3 === 0)) {
      await call(s.adminKey, 'revokeApiKey', { params: { id: key.id } });
      await call(key.secret, 'getAuthStatus');
    }
    await call(s.adminKey, 'listApiKeys');

    // Each secret is in exactly one response, the one that created it; the owner key (made
    // by the operator, not through the API) in none.
    const texts = responses.map(({ response }) =>
      [JSON.stringify(response.headers), response.body].join('\n'),
    );
    for (const key of created) {
      const holders = responses.filter((_, i) => texts[i]?.includes(key.secret));
      expect(holders.map(({ response }) => response)).toEqual([key.response]);
    }
    expect(texts.filter((text) => text.includes(s.adminKey))).toEqual([]);

    // Nowhere in the database (file, WAL, shared memory), before and after a checkpoint,
    // nor in the logs. The search would see them: the hashes are there.
    const secrets = [s.adminKey, ...created.map((key) => key.secret)];
    const check = () => {
      const bytes = databaseBytes(s.dataDir);
      for (const secret of secrets) {
        for (const trace of tracesOf(secret)) expect(bytes.includes(trace)).toBe(false);
        expect(bytes.includes(hashSecret(secret))).toBe(true);
      }
    };
    expect(existsSync(join(s.dataDir, `${DATABASE_FILE}-wal`))).toBe(true);
    check();
    await s.storageBytes({ checkpoint: true });
    check();
    const logged = log.text();
    expect(log.lines.filter((line) => line.includes('"msg":"request"')).length).toBe(
      responses.length,
    );
    for (const secret of secrets) {
      for (const trace of tracesOf(secret)) expect(logged).not.toContain(trace);
    }
    reportFigure(
      `secrets: ${created.length} keys, ${responses.length} responses and log lines searched, each secret in 1 response`,
    );
  });
});

/** 1,000 requests with `key` across endpoints, 50 at a time; their statuses. */
async function hammer(s: TestService, key: string): Promise<Map<number, number>> {
  const calls: (() => Promise<LightMyRequestResponse>)[] = [
    () => send(s, key, 'getAuthStatus'),
    () => send(s, key, 'listConfigs'),
    () => send(s, key, 'getLiveConfig'),
    () => send(s, key, 'listApiKeys'),
    () => send(s, key, 'createApiKey', { payload: { name: 'after' } }),
    () => edit(s, key, { operations: [CREATE_APP('after')], summary: 'after' }),
  ];
  const statuses = new Map<number, number>();
  for (let start = 0; start < AFTER_REVOCATION; start += 50) {
    const batch = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (calls[(start + i) % calls.length] as () => Promise<LightMyRequestResponse>)(),
      ),
    );
    for (const response of batch) {
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    }
  }
  return statuses;
}

describe('a key pasted where it does not belong', () => {
  it('is not logged when it is in the URL', async () => {
    const log = logCollector();
    service = await startTestService({
      logger: { ...serviceLoggerOptions('info'), stream: log.stream },
    });
    const key = service.adminKey;
    await send(service, key, 'getConfig', { params: { id: key } });
    await send(service, key, 'listConfigs', { query: { kind: key } });
    await send(service, undefined, 'getHealth', { query: { token: key } });
    await service.call(undefined, { method: 'GET', url: `/settings?key=${key}` });
    const logged = log.text();
    expect(log.lines.filter((line) => line.includes('"msg":"request"'))).toHaveLength(4);
    for (const trace of tracesOf(key)) expect(logged).not.toContain(trace);
    expect(logged).toContain('sk_[redacted]');
  });
});

describe('revoked and expired keys', () => {
  it('a key revoked through the API: 0 successes in 1,000 requests right after', async () => {
    service = await startTestService();
    const key = await service.keyFor('admin');
    expect((await send(service, key, 'getAuthStatus')).statusCode).toBe(200);
    // The key revokes itself, then is used at once.
    const { api_key_id: id } = (await send(service, key, 'getAuthStatus')).json() as {
      api_key_id: string;
    };
    expect((await send(service, key, 'revokeApiKey', { params: { id } })).statusCode).toBe(200);
    const statuses = await hammer(service, key);
    expect(statuses).toEqual(new Map([[401, AFTER_REVOCATION]]));
    reportFigure(`revoked key (API): ${AFTER_REVOCATION} requests, 0 successes`);
  });

  it('a key revoked by the operator on another connection: 0 successes in 1,000 requests', async () => {
    service = await startTestService();
    const key = await service.keyFor('admin');
    const status = (await send(service, key, 'getAuthStatus')).json() as { api_key_id: string };
    // The operator's command line: its own connection to the same file, while the service runs.
    const printed = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const code = await main([
      'keys',
      'revoke',
      '--id',
      status.api_key_id,
      '--data-dir',
      service.dataDir,
    ]);
    printed.mockRestore();
    expect(code).toBe(0);
    const statuses = await hammer(service, key);
    expect(statuses).toEqual(new Map([[401, AFTER_REVOCATION]]));
    reportFigure(`revoked key (operator): ${AFTER_REVOCATION} requests, 0 successes`);
  });

  it('a key at its expiry instant: 0 successes in 1,000 requests; a millisecond before, it works', async () => {
    const clock = manualClock('2026-11-22T10:00:00.000Z');
    service = await startTestService({ clock: clock.clock });
    const key = await service.keyFor('admin', { expiresInDays: 1 });
    clock.set('2026-11-23T09:59:59.999Z');
    expect((await send(service, key, 'getAuthStatus')).statusCode).toBe(200);
    clock.set('2026-11-23T10:00:00.000Z');
    const statuses = await hammer(service, key);
    expect(statuses).toEqual(new Map([[401, AFTER_REVOCATION]]));
    reportFigure(`expired key: ${AFTER_REVOCATION} requests, 0 successes`);
  });
});
