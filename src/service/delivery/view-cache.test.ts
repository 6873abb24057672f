/**
 * The view cache (view-cache.ts): bounded, one parse per config however many apps and
 * concurrent misses ask, a failed read not kept, and an ETag that names the view's bytes.
 */
import { describe, expect, it } from 'vitest';
import { deliveryViewOf } from '../../configs/delivery-view';
import { DeliveryViewCache, viewEtagOf } from './view-cache';

const stamp = (id: string, revision = 1) => ({
  id,
  revision,
  published_at: '2026-11-26T08:00:00.000Z',
});
const DATA = {
  apps: [
    { id: 'web', name: 'Web', platform: 'web', settings: { theme: 'dark' } },
    { id: 'ios', name: 'iOS', platform: 'ios' },
  ],
  ab_tests: [],
};
const viewOf = (appId: string, at = stamp('cfg_1')) => {
  const view = deliveryViewOf(DATA, appId, at);
  if (!view) throw new Error(`no view of ${appId}`);
  return view;
};

describe('DeliveryViewCache', () => {
  it('keeps a view by (config id, revision, app) with its JSON and ETag', () => {
    const cache = new DeliveryViewCache({ views: 10, configs: 2 });
    const at = stamp('cfg_1');
    expect(cache.view(at, 'web')).toBeUndefined();
    const kept = cache.keepView(at, 'web', viewOf('web'));
    expect(kept.json).toBe(JSON.stringify(viewOf('web')));
    expect(kept.etag).toBe(viewEtagOf(kept.json));
    expect(kept.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(cache.view(at, 'web')).toBe(kept);
    expect(cache.view(stamp('cfg_1', 2), 'web')).toBeUndefined();
    expect(cache.view(at, 'ios')).toBeUndefined();
  });

  it('gives different views different ETags, and equal bytes the same', () => {
    expect(viewEtagOf(JSON.stringify(viewOf('web')))).not.toBe(
      viewEtagOf(JSON.stringify(viewOf('ios'))),
    );
    expect(viewEtagOf('{"a":1}')).toBe(viewEtagOf('{"a":1}'));
  });

  it('holds at most its limit of views, dropping the oldest', () => {
    const cache = new DeliveryViewCache({ views: 3, configs: 2 });
    for (let n = 1; n <= 4; n++) cache.keepView(stamp(`cfg_${n}`), 'web', viewOf('web'));
    expect(cache.size.views).toBe(3);
    expect(cache.view(stamp('cfg_1'), 'web')).toBeUndefined();
    expect(cache.view(stamp('cfg_4'), 'web')).toBeDefined();
  });

  it('parses a config once for all its apps and concurrent misses, and at most its limit', async () => {
    const cache = new DeliveryViewCache({ views: 10, configs: 2 });
    let loads = 0;
    const load = async () => {
      loads += 1;
      return DATA;
    };
    const at = stamp('cfg_1');
    const all = await Promise.all([
      cache.configData(at, load),
      cache.configData(at, load),
      cache.configData(at, load),
    ]);
    expect(loads).toBe(1);
    expect(all.every((data) => data === DATA)).toBe(true);
    await cache.configData(stamp('cfg_2'), load);
    await cache.configData(stamp('cfg_3'), load);
    expect(cache.size.configs).toBe(2);
    expect(loads).toBe(3);
    await cache.configData(at, load);
    expect(loads).toBe(4);
  });

  it('does not keep a failed read: the next one tries again', async () => {
    const cache = new DeliveryViewCache({ views: 10, configs: 2 });
    const at = stamp('cfg_1');
    await expect(cache.configData(at, () => Promise.reject(new Error('away')))).rejects.toThrow(
      'away',
    );
    expect(await cache.configData(at, async () => DATA)).toBe(DATA);
  });
});
