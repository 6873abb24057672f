/**
 * The client library against the real service on 127.0.0.1 (SQLite, startTestService): a
 * client key made through the API, the first view from the stream, local lookups equal to
 * the service's own assignment, a publish reaching a subscriber within a second, and a
 * revoked key reported while the last view stays.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { editOk, ok, send, SHOP_YAML } from '../service/testing/api';
import { startTestService, type TestService } from '../service/testing/test-service';
import {
  createClient,
  type ClientError,
  type DeliveryView,
  type ProvisioningClient,
} from './provisioning-client';

let service: TestService;
let baseUrl: string;
let client: ProvisioningClient | undefined;
let errors: ClientError[];

beforeEach(async () => {
  service = await startTestService({ initialYaml: SHOP_YAML });
  await service.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
  errors = [];
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  await service.close();
});

async function clientKey(apps?: string[]) {
  return ok(service, service.adminKey, 'createClientKey', {
    payload: { name: 'Checkout web', ...(apps ? { apps } : {}) },
  });
}

function open(
  key: string,
  fetcher?: typeof fetch,
  idleTimeoutMs?: number,
  trackExposures = false,
): ProvisioningClient {
  client = createClient({
    baseUrl,
    clientKey: key,
    app: 'checkout',
    onError: (error) => errors.push(error),
    reconnect: { initialDelayMs: 50, maxDelayMs: 200, ...(idleTimeoutMs ? { idleTimeoutMs } : {}) },
    // Events are sent only by the test about them (the endpoint's own: experiment-events.test.ts).
    trackExposures,
    ...(fetcher ? { fetch: fetcher } : {}),
  });
  return client;
}

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Publishes the checkout app's theme; the time the publish was sent. */
async function publishTheme(theme: string): Promise<number> {
  const draft = await editOk(service, service.adminKey, {
    operations: [{ update_app: [{ id: 'checkout', settings: { theme } }] }],
    summary: `Theme ${theme}`,
  });
  const sentAt = Date.now();
  await ok(service, service.adminKey, 'publishConfig', { params: { id: draft.id } });
  return sentAt;
}

describe('the client library against the service', () => {
  it('reads the live view, and assigns every unit as the service does', async () => {
    const key = await clientKey(['checkout']);
    const live = await open(key.key).ready({ timeoutMs: 5000 });
    const served = await ok(service, undefined, 'getDeliveryView', {
      params: { client_key: key.key, app_id: 'checkout' },
    });
    expect(live).toEqual(served);
    expect(live.ab_tests.map((test) => test.id)).toEqual(['bigger-button']);
    const variants = new Set<string | undefined>();
    for (let index = 0; index < 40; index += 1) {
      const unit = `user-${index}`;
      const assignment = await ok(service, undefined, 'getAssignment', {
        params: { client_key: key.key, app_id: 'checkout' },
        query: { unit },
      });
      expect(client?.settings(unit)).toEqual(assignment.settings);
      const variant = client?.variant('bigger-button', unit);
      expect(variant).toBe(assignment.tests.find((test) => test.id === 'bigger-button')?.variant);
      variants.add(variant);
    }
    expect(variants).toEqual(new Set(['control', 'big']));
    // The worked example of docs/delivery.md.
    expect(client?.variant('bigger-button', 'user-2')).toBe('big');
    expect(client?.settings('user-2')).toEqual({ theme: 'light', button_size: 'large' });
    expect(client?.variant('bigger-button', 'alice')).toBe('control');
    expect(errors).toEqual([]);
  });

  it("sends each unit's exposure once and its events, and the service counts them", async () => {
    await service.close();
    service = await startTestService({ initialYaml: SHOP_YAML, resultsJob: { tickMs: 3_600_000 } });
    await service.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
    const key = await clientKey(['checkout']);
    const app = open(key.key, undefined, undefined, true);
    await app.ready({ timeoutMs: 5000 });
    const units = Array.from({ length: 30 }, (_, index) => `person-${index}`);
    const seen = new Map<string, string | undefined>();
    for (const unit of units) {
      seen.set(unit, app.variant('bigger-button', unit));
      app.variant('bigger-button', unit);
      app.track('purchase', unit, 10);
    }
    await app.flush();
    expect(app.eventStats()).toMatchObject({ queued: 0, sent: 60, dropped: 0, rejected: 0 });
    expect(errors).toEqual([]);
    await ok(service, service.adminKey, 'refreshResults', { params: { test_id: 'bigger-button' } });
    await vi.waitFor(
      async () => {
        const results = await ok(service, service.adminKey, 'getResults', {
          params: { test_id: 'bigger-button' },
        });
        expect(results.computed_at).not.toBeNull();
        const count = (variant: string) => [...seen.values()].filter((v) => v === variant).length;
        expect(results.units.map(({ variant, units }) => [variant, units])).toEqual([
          ['control', count('control')],
          ['big', count('big')],
        ]);
        expect(results.health).toMatchObject({ mismatches: 0, multiple_exposures: 0 });
      },
      { timeout: 10_000, interval: 20 },
    );
  });

  it('hears a publish within a second', async () => {
    const key = await clientKey();
    const reader = open(key.key);
    await reader.ready({ timeoutMs: 5000 });
    const heard: { at: number; view: DeliveryView }[] = [];
    reader.subscribe((view) => heard.push({ at: Date.now(), view }));
    const publishedAt = await publishTheme('dark');
    await until(() => heard.length === 1, 2000);
    expect(heard[0]?.view.app.settings.theme).toBe('dark');
    expect(reader.settings('someone').theme).toBe('dark');
    const latency = (heard[0]?.at ?? Infinity) - publishedAt;
    console.info(`publish sent -> subscriber called: ${latency} ms`);
    expect(latency).toBeLessThan(1000);
    expect(errors).toEqual([]);
  });

  it('reconnects with Last-Event-ID, and the service sends only what is newer', async () => {
    const key = await clientKey();
    const lastIds: (string | null)[] = [];
    const watched: typeof fetch = (input, init) => {
      if (String(input).includes('/stream')) {
        lastIds.push(new Headers(init?.headers).get('last-event-id'));
      }
      return fetch(input, init);
    };
    // The service beats every 20 s: a 300 ms idle timeout makes the client reconnect often.
    const reader = open(key.key, watched, 300);
    const view = await reader.ready({ timeoutMs: 5000 });
    const heard: DeliveryView[] = [];
    reader.subscribe((next) => heard.push(next));
    await until(() => lastIds.length >= 3);
    expect(lastIds[0]).toBeNull();
    expect(lastIds.slice(1)).toEqual(
      Array(lastIds.length - 1).fill(`${view.config.id}:${view.config.revision}`),
    );
    expect(heard).toEqual([]);
    await publishTheme('dark');
    await until(() => heard.length === 1);
    expect(heard[0]?.app.settings.theme).toBe('dark');
    expect(errors.map((error) => error.message)).toEqual(
      Array(errors.length).fill('stream: nothing for 300 ms'),
    );
  });

  it('reports a revoked key and keeps its last view', async () => {
    const key = await clientKey();
    const reader = open(key.key);
    const view = await reader.ready({ timeoutMs: 5000 });
    const settings = reader.settings('user-1');
    await ok(service, service.adminKey, 'revokeClientKey', { params: { id: key.id } });
    // Its delivery URLs answer 404 from now on; the open stream learns it too.
    expect(
      (
        await send(service, undefined, 'getDeliveryView', {
          params: { client_key: key.key, app_id: 'checkout' },
        })
      ).statusCode,
    ).toBe(404);
    await until(() => errors.some((error) => error.kind === 'http' && error.status === 404));
    expect(reader.view()).toEqual(view);
    expect(reader.settings('user-1')).toEqual(settings);
  });

  it('reads the view by GET, revalidating with the ETag, where streams are refused', async () => {
    const key = await clientKey();
    const asked: { url: string; ifNoneMatch: string | null; status: number }[] = [];
    // A proxy in between that refuses long-lived answers.
    const proxied: typeof fetch = async (input, init) => {
      const url = String(input);
      const ifNoneMatch = new Headers(init?.headers).get('if-none-match');
      const response = url.includes('/stream')
        ? new Response('busy', { status: 503, headers: { 'retry-after': '0' } })
        : await fetch(input, init);
      asked.push({ url, ifNoneMatch, status: response.status });
      return response;
    };
    const reader = open(key.key, proxied);
    const heard: DeliveryView[] = [];
    reader.subscribe((view) => heard.push(view));
    await reader.ready({ timeoutMs: 5000 });
    await until(() => asked.filter((call) => call.status === 304).length >= 1);
    const gets = asked.filter((call) => call.url.includes('/apps/checkout'));
    expect(gets[0]).toMatchObject({ ifNoneMatch: null, status: 200 });
    expect(gets[1]?.ifNoneMatch).toMatch(/^"/);
    expect(gets[1]?.status).toBe(304);
    await publishTheme('dark');
    await until(() => reader.settings('someone').theme === 'dark');
    expect(heard).toHaveLength(2);
    expect(errors.every((error) => error.kind === 'http' && error.status === 503)).toBe(true);
  });

  it('lets a browser send the headers the client sends, and read the ETag', async () => {
    const key = await clientKey();
    const preflight = await service.app.inject({
      method: 'OPTIONS',
      url: `/api/v1/delivery/${key.key}/stream?app=checkout`,
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'last-event-id,if-none-match',
      },
    });
    expect(preflight.statusCode).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    if (allowed !== '*') {
      expect(allowed).toContain('last-event-id');
      expect(allowed).toContain('if-none-match');
    }
    const view = await send(service, undefined, 'getDeliveryView', {
      params: { client_key: key.key, app_id: 'checkout' },
      headers: { origin: 'https://app.example.com' },
    });
    expect(String(view.headers['access-control-expose-headers']).toLowerCase()).toContain('etag');
  });
});
