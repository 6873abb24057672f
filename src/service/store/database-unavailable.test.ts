import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { createAccount, createApiKey } from '../testing/made-at';
import { expectProblem, expectSuccess, urlOf, type CallInput } from '../testing/api';
import type { EndpointName } from '../../contract/endpoints';
import { contract } from '../../contract/endpoints';
import { DATABASE_FILE, openDatabase } from './database';
import { asDatabaseUnavailable, DatabaseUnavailable } from './database-unavailable';
import { DatabaseHealth, HEALTH_FRESH_MS, HEALTH_PROBE_TIMEOUT_MS } from './health/database-health';
import { createPostgresPool } from './postgres-database';
import { PostgresStore } from './postgres-store';
import { SqliteStore } from './sqlite-store';

function postgresError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, 0, 'error');
  error.code = code;
  return error;
}

/** A loopback port where nothing listens. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('telling an unreachable database from a bug', () => {
  it('counts a refused connection as unavailable', async () => {
    const client = new pg.Client({
      connectionString: `postgres://x@127.0.0.1:${await closedPort()}/x`,
    });
    const error = await client.connect().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(Error);
    expect(asDatabaseUnavailable(error)).toBeInstanceOf(DatabaseUnavailable);
  });

  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
  ])('counts PostgreSQL %s as unavailable', (code, message) => {
    expect(asDatabaseUnavailable(postgresError(code, message))).toBeInstanceOf(DatabaseUnavailable);
  });

  it.each([
    'Connection terminated unexpectedly',
    'Client has encountered a connection error and is not queryable',
    'timeout exceeded when trying to connect',
  ])('counts node-postgres\'s "%s" as unavailable', (message) => {
    expect(asDatabaseUnavailable(new Error(message))).toBeInstanceOf(DatabaseUnavailable);
  });

  it('keeps errors of the query or the code what they are (a 500)', () => {
    for (const error of [
      postgresError('42601', 'syntax error at or near "SELEC"'),
      postgresError('23505', 'duplicate key value violates unique constraint'),
      postgresError('40P01', 'deadlock detected'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      new Error('A unit of work read the config cfg_1 without declaring it in its reads'),
      'not an error',
      undefined,
    ]) {
      expect(asDatabaseUnavailable(error), String(error)).toBeUndefined();
    }
  });
});

describe('a PostgreSQL address that accepts connections and never answers', () => {
  it('fails a query as unavailable instead of waiting, and /health says so', async () => {
    // Holds every connection open and silent, as a host lost in a network partition would.
    const sockets = new Set<Socket>();
    const server = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const store = new PostgresStore(
      createPostgresPool({ url: `postgres://x@127.0.0.1:${port}/x`, connectTimeoutMs: 200 }),
    );
    // A liveness bound only: without a connect timeout the query would wait forever.
    let timer: NodeJS.Timeout | undefined;
    const bounded = <T>(promise: Promise<T>) =>
      Promise.race([
        promise,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('still waiting')), 20_000);
        }),
      ]).finally(() => clearTimeout(timer));
    try {
      // First /health (its own probe), then a request.
      expect(await bounded(store.checkHealth())).toBe('unavailable');
      await expect(bounded(store.getAccount('acc_1'))).rejects.toBeInstanceOf(DatabaseUnavailable);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
      await store.close();
    }
  });
});

describe('the database state for /health', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers from the latest query while it is recent, and probes once when it is not', async () => {
    let now = 0;
    const probe = vi.fn(async () => undefined);
    const health = new DatabaseHealth(probe, () => now);
    health.answered();
    expect(await health.check()).toBe('ok');
    health.failed();
    expect(await health.check()).toBe('unavailable');
    expect(probe).not.toHaveBeenCalled();

    now += HEALTH_FRESH_MS;
    // Callers that come while a probe runs share it.
    expect(await Promise.all([health.check(), health.check(), health.check()])).toEqual([
      'ok',
      'ok',
      'ok',
    ]);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(await health.check()).toBe('ok');
    expect(probe).toHaveBeenCalledTimes(1);
  });

  it('gives up on a probe that does not answer, and says unavailable', async () => {
    vi.useFakeTimers();
    const health = new DatabaseHealth(() => new Promise(() => undefined));
    const state = health.check();
    await vi.advanceTimersByTimeAsync(HEALTH_PROBE_TIMEOUT_MS);
    expect(await state).toBe('unavailable');
  });

  it('says unavailable when the probe fails', async () => {
    const health = new DatabaseHealth(() => Promise.reject(new Error('Connection terminated')));
    expect(await health.check()).toBe('unavailable');
  });
});

describe('SQLite locked past the busy timeout', () => {
  it('answers 503 with Retry-After, saves nothing, and edits again once the lock is gone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-busy-'));
    const db = openDatabase(dataDir);
    // Short, so that the test does not hold its thread for the real five seconds.
    db.pragma('busy_timeout = 50');
    const store = new SqliteStore(db);
    const app = await buildApp({ store, rateLimit: { rps: 0, burst: 0 } });
    const other = new Database(join(dataDir, DATABASE_FILE));
    try {
      const account = await createAccount(store, {
        name: 'Busy',
        ownerEmail: 'o@example.com',
        now: new Date(),
      });
      const owner = await store.getUser(account.user_id);
      if (!owner) throw new Error('no owner');
      const { secret } = await createApiKey(store, {
        user: owner,
        name: 'k',
        actor: null,
        now: new Date(),
      });
      const call = (name: EndpointName, input: CallInput = {}) =>
        app.inject({
          method: contract[name].method,
          url: urlOf(name, input),
          headers: { authorization: `Bearer ${secret}` },
          ...(input.payload !== undefined ? { payload: input.payload as object } : {}),
        });
      const edit = { operations: [{ set: [{ path: '/notes', value: 'x' }] }], summary: 'one' };
      const live = expectSuccess('getLiveConfig', await call('getLiveConfig'));

      // Another process (the operator's command line, say) holds the write lock.
      other.prepare('BEGIN IMMEDIATE').run();
      const refused = await call('editConfig', { payload: edit });
      expect(expectProblem(refused, 503, 'database_unavailable').detail).toMatch(/Retry-After/);
      expect(refused.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
      // Reads do not wait for the writer (WAL), and the database still answers.
      expect(expectSuccess('listConfigs', await call('listConfigs'))).toHaveLength(1);
      expect(expectSuccess('getHealth', await call('getHealth'))).toEqual({ status: 'ok' });
      other.prepare('ROLLBACK').run();

      expect(expectSuccess('listConfigs', await call('listConfigs'))).toHaveLength(1);
      expect(expectSuccess('getLiveConfig', await call('getLiveConfig')).revision).toBe(
        live.revision,
      );
      expectSuccess('editConfig', await call('editConfig', { payload: edit }));
    } finally {
      other.close();
      await app.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
