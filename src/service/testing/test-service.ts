/**
 * A real service on a real, temporary database, for API tests: the app (use `inject`), the
 * store (SQLite, or PostgreSQL in the Vitest project `postgres`: test-store.ts), an account
 * with an admin key, and helpers to add users and keys. Test-only.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import type { Permission, Role } from '../../contract/auth-status';
import type { RateLimitSettings } from '../plugins/rate-limit';
import { buildApp, type AppOptions } from '../app';
import { type CreatedAccount } from '../domain/accounts';
import { createAccount, createApiKey, createUser } from './made-at';
import type { Clock } from '../domain/clock';
import { EditPool } from '../edit-work/edit-pool';
import type { Store } from '../store/store';
import { openTestStore, type StoreKind, type TestStore } from './test-store';

export interface TestService {
  readonly app: FastifyInstance;
  readonly store: Store;
  readonly storeKind: StoreKind;
  /** A temporary directory of this service's own (SQLite's file is there). */
  readonly dataDir: string;
  /** Rows of a query on the service's database (`?` placeholders; SQL both dialects read). */
  rows: TestStore['rows'];
  /** Every byte the database keeps on disk (its files and log; test-store.ts). */
  storageBytes: TestStore['storageBytes'];
  openSecondStore: TestStore['openSecondStore'];
  readonly account: CreatedAccount;
  /** The account owner's admin key. */
  readonly adminKey: string;
  /** A key for a new user of `role` in `accountId` (default: the test account). */
  keyFor(
    role: Role,
    options?: { accountId?: string; permissions?: Permission[]; expiresInDays?: number },
  ): Promise<string>;
  /** A second account with its own admin key. */
  otherAccount(): Promise<{ account: CreatedAccount; key: string }>;
  /** `inject` with `Authorization: Bearer key`. */
  call(key: string | undefined, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  readonly clock?: Clock;
  readonly rateLimit?: RateLimitSettings;
  /** The delivery URLs' limit per address (off when absent). */
  readonly deliveryRateLimit?: RateLimitSettings;
  /** Delivery streams' bounds and heartbeat (their defaults when absent). */
  readonly streams?: AppOptions['streams'];
  /** `DELIVERY_CDN_MAX_AGE` (off when absent). */
  readonly deliveryCdnMaxAgeSeconds?: number;
  readonly initialYaml?: string;
  readonly logger?: Parameters<typeof buildApp>[0]['logger'];
  /** The edit pool, owned by the caller; by default one shared by the test file's services. */
  readonly editPool?: EditPool;
  /** Timeouts and trusted proxies (the defaults when absent). */
  readonly http?: AppOptions['http'];
  /** A built console to serve, and whether its source maps are served. */
  readonly consoleDir?: string;
  readonly serveSourceMaps?: boolean;
  /** `CORS_ORIGINS` (none when absent). */
  readonly corsOrigins?: readonly string[];
  /** How successful delivery reads are logged (a summary a minute when absent). */
  readonly deliveryReadLog?: AppOptions['deliveryReadLog'];
  /** Which webhook URLs may be registered (public https: only when absent). */
  readonly webhookUrlPolicy?: AppOptions['webhookUrlPolicy'];
  /** The webhook sender's settings; no sender when absent (the outbox tests claim by hand). */
  readonly webhookSender?: Exclude<AppOptions['webhookSender'], false>;
  /** Sign-in and sessions (the defaults when absent). */
  readonly people?: AppOptions['people'];
  /** Scheduled changes run only when asked for (their own tests). */
  readonly scheduler?: AppOptions['scheduler'];
  readonly resultsJob?: AppOptions['resultsJob'];
  readonly eventBudget?: AppOptions['eventBudget'];
}

// One edit pool for a test file's services: its worker takes about 0.4 s to start from the
// TypeScript source, which would dwarf most tests. Its cache is keyed by config id and text,
// so services on different databases cannot see each other's documents.
let sharedEditPool: EditPool | undefined;
afterAll(async () => {
  await sharedEditPool?.close();
  sharedEditPool = undefined;
});

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const database = await openTestStore();
  const { store, dataDir } = database;
  const clock = options.clock ?? (() => new Date());
  const app = await buildApp({
    store,
    clock,
    rateLimit: options.rateLimit ?? { rps: 0, burst: 0 },
    deliveryRateLimit: options.deliveryRateLimit ?? { rps: 0, burst: 0 },
    ...(options.streams ? { streams: options.streams } : {}),
    ...(options.deliveryCdnMaxAgeSeconds !== undefined
      ? { deliveryCdnMaxAgeSeconds: options.deliveryCdnMaxAgeSeconds }
      : {}),
    sharedEditPool:
      options.editPool ??
      (sharedEditPool ??= new EditPool({ workers: 1, cacheBytes: 64 * 1024 * 1024 })),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.http ? { http: options.http } : {}),
    ...(options.consoleDir ? { consoleDir: options.consoleDir } : {}),
    ...(options.serveSourceMaps ? { serveSourceMaps: true } : {}),
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.deliveryReadLog ? { deliveryReadLog: options.deliveryReadLog } : {}),
    ...(options.webhookUrlPolicy ? { webhookUrlPolicy: options.webhookUrlPolicy } : {}),
    webhookSender: options.webhookSender ?? false,
    ...(options.people ? { people: options.people } : {}),
    // Pruning has its own tests (retention/pruner.test.ts), which run it by hand.
    retention: false,
    scheduler: options.scheduler ?? false,
    resultsJob: options.resultsJob ?? false,
    ...(options.eventBudget ? { eventBudget: options.eventBudget } : {}),
  });
  const account = await createAccount(store, {
    name: 'Test account',
    ownerEmail: 'owner@example.com',
    now: clock(),
    ...(options.initialYaml ? { initialYaml: options.initialYaml } : {}),
  });
  const owner = await store.getUser(account.user_id);
  if (!owner) throw new Error('the owner was not created');
  const adminKey = (
    await createApiKey(store, { user: owner, name: 'Owner key', actor: null, now: clock() })
  ).secret;

  let users = 0;
  const service: TestService = {
    app,
    store,
    storeKind: database.kind,
    dataDir,
    rows: database.rows,
    storageBytes: database.storageBytes,
    openSecondStore: database.openSecondStore,
    account,
    adminKey,
    async keyFor(role, keyOptions = {}) {
      users += 1;
      const user = await createUser(store, {
        accountId: keyOptions.accountId ?? account.account_id,
        email: `${role}${users}@example.com`,
        role,
        now: clock(),
      });
      const created = await createApiKey(store, {
        user,
        name: `${role} key`,
        ...(keyOptions.permissions ? { permissions: keyOptions.permissions } : {}),
        ...(keyOptions.expiresInDays !== undefined
          ? { expiresInDays: keyOptions.expiresInDays }
          : {}),
        actor: null,
        now: clock(),
      });
      return created.secret;
    },
    async otherAccount() {
      const other = await createAccount(store, {
        name: 'Other account',
        ownerEmail: 'other@example.com',
        now: clock(),
      });
      const user = await store.getUser(other.user_id);
      if (!user) throw new Error('the owner was not created');
      const key = (
        await createApiKey(store, { user, name: 'Other key', actor: null, now: clock() })
      ).secret;
      return { account: other, key };
    },
    call(key, request) {
      return app.inject({
        ...request,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(request.headers ?? {}) },
      });
    },
    async close() {
      await app.close();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return service;
}
