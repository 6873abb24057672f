/**
 * GET /delivery/{client_key}/apps/{app_id} and its /assignment (docs/delivery.md): the live
 * view with a strong ETag, 304 on If-None-Match, one 404 for every way of not finding it, no
 * staleness after a publish or a revoke, assignment exactly as the shared module computes
 * it, CORS for any origin, and a rate limit per client address.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assign } from '../../contract/assignment';
import { API_BASE_PATH } from '../../contract/endpoints';
import { buildApp } from '../app';
import { EditPool } from '../edit-work/edit-pool';
import { openDatabase } from '../store/database';
import { DELIVERY_VERSION_WINDOW_MS, SqliteStore } from '../store/sqlite-store';
import type { Store } from '../store/store';
import {
  editOk,
  errorPaths,
  expectProblem,
  expectSuccess,
  manualClock,
  ok,
  send,
  SHOP_YAML,
  urlOf,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import { DELIVERY_NOT_FOUND_DETAIL } from '../routes/delivery-routes';

/** A millisecond: past the window in which a SQLite store reuses its data_version reading. */
function afterTheVersionWindow(): Promise<void> {
  expect(DELIVERY_VERSION_WINDOW_MS).toBeLessThan(1);
  return new Promise((resolve) => setTimeout(resolve, 1));
}
let clock: ReturnType<typeof manualClock>;
let service: TestService;
let admin: string;

beforeEach(async () => {
  clock = manualClock('2026-11-22T10:00:00.000Z');
  service = await startTestService({ clock: clock.clock, initialYaml: SHOP_YAML });
  admin = service.adminKey;
});
afterEach(async () => {
  await service.close();
});

async function clientKey(apps?: string[]): Promise<{ id: string; key: string }> {
  return ok(service, admin, 'createClientKey', {
    payload: { name: 'Apps', ...(apps ? { apps } : {}) },
  });
}

function view(key: string, app: string, headers?: Record<string, string>) {
  return send(service, undefined, 'getDeliveryView', {
    params: { client_key: key, app_id: app },
    ...(headers ? { headers } : {}),
  });
}

function assignment(key: string, app: string, unit: string | undefined) {
  return send(service, undefined, 'getAssignment', {
    params: { client_key: key, app_id: app },
    ...(unit === undefined ? {} : { query: { unit } }),
  });
}

/** Publishes a copy of the live config with the checkout app renamed. */
async function publishRenamed(name: string) {
  const draft = await editOk(service, admin, {
    operations: [{ update_app: [{ id: 'checkout', name }] }],
    summary: `Rename checkout to ${name}`,
  });
  return ok(service, admin, 'publishConfig', { params: { id: draft.id } });
}

const CHECKOUT_VIEW = () => ({
  app: {
    id: 'checkout',
    name: 'Checkout',
    platform: 'web',
    enabled: true,
    settings: { theme: 'light', button_size: 'medium' },
  },
  ab_tests: [
    {
      id: 'bigger-button',
      status: 'running',
      variants: [
        { id: 'control', weight: 50, settings: {} },
        { id: 'big', weight: 50, settings: { button_size: 'large' } },
      ],
    },
  ],
  config: {
    id: service.account.live_config_id,
    revision: 1,
    published_at: '2026-11-22T10:00:00.000Z',
  },
});

describe('GET /delivery/{client_key}/apps/{app_id}', () => {
  it('answers the live view, a strong ETag and Cache-Control: no-cache, with no API key', async () => {
    const { key } = await clientKey();
    const response = await view(key, 'checkout');
    const body = expectSuccess('getDeliveryView', response);
    expect(body).toEqual(CHECKOUT_VIEW());
    expect(response.body).toBe(JSON.stringify(CHECKOUT_VIEW()));
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(response.headers['cache-control']).toBe('no-cache');

    // Only running tests: the iOS app's draft test is not in its view.
    const ios = expectSuccess('getDeliveryView', await view(key, 'ios-app'));
    expect(ios.app).toEqual({
      id: 'ios-app',
      name: 'Shop for iOS',
      platform: 'ios',
      enabled: true,
      settings: {},
    });
    expect(ios.ab_tests).toEqual([]);
    expect(response.headers.etag).not.toBe((await view(key, 'ios-app')).headers.etag);
  });

  it('reads no Authorization header: any, or a broken one, changes nothing', async () => {
    const { key } = await clientKey();
    for (const authorization of [`Bearer ${admin}`, 'Bearer nonsense', 'Basic x']) {
      const response = await view(key, 'checkout', { authorization });
      expect(expectSuccess('getDeliveryView', response)).toEqual(CHECKOUT_VIEW());
    }
  });

  it('answers 304 without a body to an If-None-Match naming its ETag, and 200 otherwise', async () => {
    const { key } = await clientKey();
    const etag = String((await view(key, 'checkout')).headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await view(key, 'checkout', { 'if-none-match': ifNoneMatch });
      expect(response.statusCode, ifNoneMatch).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    const changed = await view(key, 'checkout', { 'if-none-match': '"something-else"' });
    expect(expectSuccess('getDeliveryView', changed)).toEqual(CHECKOUT_VIEW());
  });

  it('answers one and the same 404 for every way of not finding the view', async () => {
    const scoped = await clientKey(['ios-app']);
    const revoked = await clientKey();
    await ok(service, admin, 'revokeClientKey', { params: { id: revoked.id } });
    const other = await service.otherAccount();
    await editOk(service, other.key, {
      operations: [{ create_app: [{ id: 'theirs', name: 'Theirs', platform: 'web' }] }],
      summary: 'Add theirs',
    }).then((draft) => ok(service, other.key, 'publishConfig', { params: { id: draft.id } }));
    const theirKey = (
      await ok(service, other.key, 'createClientKey', { payload: { name: 'Theirs' } })
    ).key;
    expect((await view(theirKey, 'theirs')).statusCode).toBe(200);
    const { key } = await clientKey();

    const misses = {
      'an unknown key': view('ck_000000000000000000000000', 'checkout'),
      'a random string': view('hello', 'checkout'),
      'an API key': view(admin, 'checkout'),
      'a revoked key': view(revoked.key, 'checkout'),
      'an unknown app': view(key, 'nope'),
      "another account's app": view(key, 'theirs'),
      "an app outside the key's scope": view(scoped.key, 'checkout'),
    };
    const bodies = new Set<string>();
    for (const [why, pending] of Object.entries(misses)) {
      const response = await pending;
      const problem = expectProblem(response, 404, 'not_found');
      expect(problem.detail, why).toBe(DELIVERY_NOT_FOUND_DETAIL);
      expect(response.headers.etag, why).toBeUndefined();
      bodies.add(response.body);
    }
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).not.toContain('ck_');
  });

  it('lets a scoped key read its apps only', async () => {
    const scoped = await clientKey(['ios-app']);
    expect((await view(scoped.key, 'ios-app')).statusCode).toBe(200);
    expectProblem(await view(scoped.key, 'checkout'), 404, 'not_found');
  });

  it('answers the new view with a new ETag on the request after a publish', async () => {
    const { key } = await clientKey();
    const before = await view(key, 'checkout');
    const etag = String(before.headers.etag);
    expect((await view(key, 'checkout', { 'if-none-match': etag })).statusCode).toBe(304);

    clock.advance(60_000);
    const published = await publishRenamed('Checkout 2');
    const after = await view(key, 'checkout', { 'if-none-match': etag });
    const body = expectSuccess('getDeliveryView', after);
    expect(body.app.name).toBe('Checkout 2');
    expect(body.config).toEqual({
      id: published.id,
      revision: published.revision,
      published_at: '2026-11-22T10:01:00.000Z',
    });
    expect(after.headers.etag).not.toBe(etag);

    // Activating the earlier config brings its view, and its ETag, back.
    await ok(service, admin, 'activateConfig', { params: { id: service.account.live_config_id } });
    const back = await view(key, 'checkout');
    expect(back.headers.etag).toBe(etag);
    expect(back.body).toBe(before.body);
  });

  it('answers 404 on the request after the key is revoked', async () => {
    const created = await clientKey();
    expect((await view(created.key, 'checkout')).statusCode).toBe(200);
    await ok(service, admin, 'revokeClientKey', { params: { id: created.id } });
    expectProblem(await view(created.key, 'checkout'), 404, 'not_found');
  });
});

/** A second app (another instance) on the same database: SQLite through a connection of its own. */
async function secondInstance(): Promise<{
  call: (
    url: string,
    options?: { method?: 'GET' | 'DELETE'; key?: string },
  ) => Promise<{ statusCode: number; body: string }>;
  close: () => Promise<void>;
}> {
  const store: Store =
    service.storeKind === 'sqlite' ? new SqliteStore(openDatabase(service.dataDir)) : service.store;
  const pool = new EditPool({ workers: 1, cacheBytes: 1024 * 1024 });
  const app = await buildApp({
    store,
    rateLimit: { rps: 0, burst: 0 },
    deliveryRateLimit: { rps: 0, burst: 0 },
    sharedEditPool: pool,
  });
  return {
    call: (url, options = {}) =>
      app.inject({
        method: options.method ?? 'GET',
        url,
        ...(options.key ? { headers: { authorization: `Bearer ${options.key}` } } : {}),
      }),
    async close() {
      await app.close();
      await pool.close();
      if (store !== service.store) await store.close();
    },
  };
}

describe('GET /delivery/{client_key}/apps/{app_id}/assignment', () => {
  it("gives each unit the variants the shared module computes, over the app's settings", async () => {
    const { key } = await clientKey();
    const live = expectSuccess('getDeliveryView', await view(key, 'checkout'));
    const variants = new Set<string>();
    for (let n = 0; n < 40; n++) {
      const unit = `user-${n}`;
      const body = expectSuccess('getAssignment', await assignment(key, 'checkout', unit));
      expect(body).toEqual({ unit, ...assign(live, unit) });
      const variant = body.tests[0]?.variant ?? '';
      variants.add(variant);
      expect(body.settings).toEqual({
        theme: 'light',
        button_size: variant === 'big' ? 'large' : 'medium',
      });
    }
    expect([...variants].sort()).toEqual(['big', 'control']);
    // An app without running tests: its settings, no tests.
    expect(expectSuccess('getAssignment', await assignment(key, 'ios-app', 'u'))).toEqual({
      unit: 'u',
      settings: {},
      tests: [],
    });
  });

  it("gives user-2 the variant docs/delivery.md works out: bucket 9,670, 'big'", async () => {
    const { key } = await clientKey();
    expect(expectSuccess('getAssignment', await assignment(key, 'checkout', 'user-2'))).toEqual({
      unit: 'user-2',
      settings: { theme: 'light', button_size: 'large' },
      tests: [{ id: 'bigger-button', variant: 'big' }],
    });
    const alice = expectSuccess('getAssignment', await assignment(key, 'checkout', 'alice'));
    expect(alice.tests).toEqual([{ id: 'bigger-button', variant: 'control' }]);
  });

  it('is the same on another instance on the same database, which sees publishes and revokes at once', async () => {
    const { key } = await clientKey();
    const other = await secondInstance();
    try {
      for (const unit of ['a', 'b', 'user-7', 'ünïcode-☃', 'x'.repeat(200)]) {
        const here = await assignment(key, 'checkout', unit);
        const there = await other.call(
          urlOf('getAssignment', {
            params: { client_key: key, app_id: 'checkout' },
            query: { unit },
          }),
        );
        expect(here.statusCode).toBe(200);
        expect(there.statusCode).toBe(200);
        expect(there.body).toBe(here.body);
      }
      // A publish through this instance shows on the other's next request (on SQLite, one
      // that comes after the quarter of a millisecond another process's commit may take).
      const published = await publishRenamed('Renamed');
      await afterTheVersionWindow();
      const there = await other.call(
        urlOf('getDeliveryView', { params: { client_key: key, app_id: 'checkout' } }),
      );
      expect(JSON.parse(there.body)).toMatchObject({
        app: { name: 'Renamed' },
        config: { id: published.id },
      });

      // A revoke through the other instance shows on this one's next request.
      expect((await view(key, 'checkout')).statusCode).toBe(200);
      const { id } = (await ok(service, admin, 'listClientKeys'))[0] ?? { id: '' };
      const revoked = await other.call(urlOf('revokeClientKey', { params: { id } }), {
        method: 'DELETE',
        key: admin,
      });
      expect(revoked.statusCode).toBe(200);
      await afterTheVersionWindow();
      expectProblem(await view(key, 'checkout'), 404, 'not_found');
    } finally {
      await other.close();
    }
  });

  it.each([
    ['an empty unit', ''],
    ['a unit over 200 characters', 'x'.repeat(201)],
    ['no unit', undefined],
  ])('refuses %s with a 400 naming unit', async (_why, unit) => {
    const { key } = await clientKey();
    const problem = expectProblem(await assignment(key, 'checkout', unit), 400, 'invalid_request');
    expect(errorPaths(problem)).toEqual(['/unit']);
  });

  it('answers the same 404 as the view for a key or app it cannot read', async () => {
    const scoped = await clientKey(['ios-app']);
    for (const response of [
      await assignment('ck_000000000000000000000000', 'checkout', 'u'),
      await assignment(scoped.key, 'checkout', 'u'),
      await assignment(scoped.key, 'nope', 'u'),
    ]) {
      expect(expectProblem(response, 404, 'not_found').detail).toBe(DELIVERY_NOT_FOUND_DETAIL);
    }
  });
});

describe('CORS on the delivery URLs', () => {
  const ORIGIN = 'https://shop.example';
  const readable = {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'ETag, Retry-After',
  };

  it('lets any origin read views, 304s and 404s, with no credentials', async () => {
    const { key } = await clientKey();
    const ok200 = await view(key, 'checkout', { origin: ORIGIN });
    expect(ok200.statusCode).toBe(200);
    expect(ok200.headers).toMatchObject(readable);
    expect(ok200.headers['access-control-allow-credentials']).toBeUndefined();
    const etag = String(ok200.headers.etag);
    const notModified = await view(key, 'checkout', { origin: 'null', 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers).toMatchObject(readable);
    const missing = await view(key, 'nope', { origin: ORIGIN });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers).toMatchObject(readable);
    const assigned = await assignment(key, 'checkout', 'u');
    expect(assigned.statusCode).toBe(200);
  });

  it('says `*` on every answer, even to a request without Origin, and never varies on Origin', async () => {
    // A shared cache may hand an answer fetched without Origin to a browser's cross-origin request.
    const { key } = await clientKey();
    const ok200 = await view(key, 'checkout');
    expect(ok200.headers).toMatchObject(readable);
    const notModified = await view(key, 'checkout', {
      'if-none-match': String(ok200.headers.etag),
    });
    expect(notModified.statusCode).toBe(304);
    const missing = await view(key, 'nope');
    const assigned = await assignment(key, 'checkout', 'u');
    for (const response of [ok200, notModified, missing, assigned]) {
      expect(response.headers, String(response.statusCode)).toMatchObject(readable);
      expect(String(response.headers.vary ?? '')).not.toMatch(/origin/i);
    }
  });

  it('answers a preflight: GET, and POST for events; If-None-Match, Last-Event-ID, Content-Type', async () => {
    const { key } = await clientKey();
    const response = await service.call(undefined, {
      method: 'OPTIONS',
      url: urlOf('getDeliveryView', { params: { client_key: key, app_id: 'checkout' } }),
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'If-None-Match, Last-Event-ID, Content-Type',
      'access-control-max-age': '600',
    });
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('leaves every other endpoint without `*`', async () => {
    for (const url of [urlOf('getAuthStatus'), urlOf('listClientKeys'), urlOf('getHealth')]) {
      const response = await service.call(admin, {
        method: 'GET',
        url,
        headers: { origin: ORIGIN },
      });
      expect(response.headers['access-control-allow-origin'], url).toBeUndefined();
      const preflight = await service.call(undefined, {
        method: 'OPTIONS',
        url,
        headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers['access-control-allow-origin'], url).toBeUndefined();
    }
  });
});

describe('caches in front of delivery', () => {
  it('varies views on Accept-Encoding, compressed or not, 304s included', async () => {
    const { key } = await clientKey();
    const plain = await view(key, 'checkout');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    const notModified = await view(key, 'checkout', {
      'if-none-match': String(plain.headers.etag),
      'accept-encoding': 'br, gzip',
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers.vary).toBe('accept-encoding');
  });

  it('lets a shared cache keep views for DELIVERY_CDN_MAX_AGE seconds while browsers still ask', async () => {
    await service.close();
    service = await startTestService({
      clock: clock.clock,
      initialYaml: SHOP_YAML,
      deliveryCdnMaxAgeSeconds: 30,
    });
    admin = service.adminKey;
    const { key } = await clientKey();
    const fresh = await view(key, 'checkout');
    const cdn = 'max-age=0, s-maxage=30, stale-while-revalidate=30';
    expect(fresh.headers['cache-control']).toBe(cdn);
    const notModified = await view(key, 'checkout', {
      'if-none-match': String(fresh.headers.etag),
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers['cache-control']).toBe(cdn);
    // A miss is never kept: the app may appear with the next publish.
    expect((await view(key, 'nope')).headers['cache-control']).not.toMatch(/s-maxage/);
  });
});

describe('the delivery rate limit', () => {
  it('counts per client address, whatever the key, apart from the API limit', async () => {
    await service.close();
    service = await startTestService({
      clock: clock.clock,
      initialYaml: SHOP_YAML,
      rateLimit: { rps: 1, burst: 1_000 },
      deliveryRateLimit: { rps: 1, burst: 3 },
    });
    admin = service.adminKey;
    const one = await clientKey();
    const two = await clientKey();
    const from = (address: string, key: string) =>
      service.call(undefined, {
        method: 'GET',
        url: urlOf('getDeliveryView', { params: { client_key: key, app_id: 'checkout' } }),
        remoteAddress: address,
      });
    for (let n = 0; n < 3; n++) {
      expect((await from('10.0.0.1', n % 2 ? one.key : two.key)).statusCode).toBe(200);
    }
    // The fourth from that address, with either key, or with none that exists.
    for (const key of [one.key, two.key, 'ck_000000000000000000000000']) {
      const refused = await from('10.0.0.1', key);
      expectProblem(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3);
    }
    // Another address has its own count; the API is not held back by delivery requests.
    expect((await from('10.0.0.2', one.key)).statusCode).toBe(200);
    await ok(service, admin, 'getAuthStatus');
  });

  it('is not counted by the API limit, nor does it count API requests', async () => {
    await service.close();
    service = await startTestService({
      clock: clock.clock,
      initialYaml: SHOP_YAML,
      rateLimit: { rps: 1, burst: 2 },
      deliveryRateLimit: { rps: 1, burst: 100 },
    });
    admin = service.adminKey;
    const { key } = await clientKey();
    for (let n = 0; n < 10; n++) expect((await view(key, 'checkout')).statusCode).toBe(200);
    await ok(service, admin, 'getAuthStatus');
    expectProblem(await send(service, admin, 'getAuthStatus'), 429, 'rate_limited');
    expect((await view(key, 'checkout')).statusCode).toBe(200);
  });
});

describe('the delivery URLs', () => {
  it('live under the API base path', () => {
    expect(urlOf('getDeliveryView', { params: { client_key: 'k', app_id: 'a' } })).toBe(
      `${API_BASE_PATH}/delivery/k/apps/a`,
    );
  });
});
