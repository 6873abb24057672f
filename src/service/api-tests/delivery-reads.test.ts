/**
 * The delivery reads (delivery/store-delivery-reads.ts) that the view GETs and the stream
 * share, on both stores: a client key unless revoked, an app's live view equal to what GET
 * answers, a publish seen at once, and a config's text read once for all its apps.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDeliveryReads, type DeliveryViewReads } from '../delivery/store-delivery-reads';
import { DeliveryViewCache } from '../delivery/view-cache';
import { editOk, manualClock, ok, send, SHOP_YAML } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;
let reads: DeliveryViewReads;

beforeEach(async () => {
  service = await startTestService({
    clock: manualClock('2026-11-22T10:00:00.000Z').clock,
    initialYaml: SHOP_YAML,
  });
  reads = createDeliveryReads({ store: service.store, cache: new DeliveryViewCache() });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await service.close();
});

describe('DeliveryReads', () => {
  it('finds a client key unless it is unknown or revoked', async () => {
    const created = await ok(service, service.adminKey, 'createClientKey', {
      payload: { name: 'Web', apps: ['checkout'] },
    });
    expect(await reads.clientKey(created.key)).toEqual({
      id: created.id,
      account_id: service.account.account_id,
      name: 'Web',
      key: created.key,
      apps: ['checkout'],
      created_at: created.created_at,
      revoked_at: null,
    });
    expect(await reads.clientKey('ck_000000000000000000000000')).toBeUndefined();
    await ok(service, service.adminKey, 'revokeClientKey', { params: { id: created.id } });
    expect(await reads.clientKey(created.key)).toBeUndefined();
  });

  it("gives an app's view and ETag as GET does, a new one after a publish, none for an unknown app", async () => {
    const { key } = await ok(service, service.adminKey, 'createClientKey', {
      payload: { name: 'Web' },
    });
    const accountId = service.account.account_id;
    const get = await send(service, undefined, 'getDeliveryView', {
      params: { client_key: key, app_id: 'checkout' },
    });
    const read = await reads.appView(accountId, 'checkout');
    expect(read?.view).toEqual(get.json());
    expect(read?.etag).toBe(get.headers.etag);
    expect(await reads.appView(accountId, 'nope')).toBeUndefined();
    expect(await reads.appView('acc_unknown', 'checkout')).toBeUndefined();

    const draft = await editOk(service, service.adminKey, {
      operations: [{ update_app: [{ id: 'checkout', name: 'New name' }] }],
      summary: 'Rename',
    });
    const published = await ok(service, service.adminKey, 'publishConfig', {
      params: { id: draft.id },
    });
    const after = await reads.appView(accountId, 'checkout');
    expect(after?.view.app.name).toBe('New name');
    expect(after?.view.config.id).toBe(published.id);
    expect(after?.etag).not.toBe(read?.etag);
  });

  it("reads a config's text once for all its apps, however many ask at once", async () => {
    const getConfig = vi.spyOn(service.store, 'getConfig');
    const accountId = service.account.account_id;
    const views = await Promise.all(
      ['checkout', 'ios-app', 'checkout', 'ios-app'].map((app) => reads.appView(accountId, app)),
    );
    expect(views.map((view) => view?.view.app.id)).toEqual([
      'checkout',
      'ios-app',
      'checkout',
      'ios-app',
    ]);
    expect(getConfig).toHaveBeenCalledTimes(1);
    await reads.appView(accountId, 'checkout');
    expect(getConfig).toHaveBeenCalledTimes(1);
  });
});
