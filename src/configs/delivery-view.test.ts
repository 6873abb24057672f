import { describe, expect, it } from 'vitest';
import { appIdsOf, deliveryViewOf } from './delivery-view';

const stamp = { id: 'cfg_1', revision: 3, published_at: '2026-11-26T08:00:00.000Z' };
const data = {
  apps: [
    { id: 'web', name: 'Web', platform: 'web', settings: { theme: 'dark', size: 2 } },
    { id: 'ios', name: 'iOS', platform: 'ios', enabled: false },
  ],
  ab_tests: [
    {
      id: 'hero',
      app: 'web',
      status: 'running',
      variants: [
        { id: 'a', weight: 50, settings: { theme: 'light' } },
        { id: 'b', weight: 50 },
      ],
      // What the test is judged on is the service's business, never the app's.
      metrics: ['checkout-rate'],
      guardrails: ['errors'],
    },
    { id: 'old', app: 'web', status: 'ended', variants: [{ id: 'a', weight: 100 }] },
    { id: 'soon', app: 'web', status: 'draft', variants: [{ id: 'a', weight: 100 }] },
    { id: 'other', app: 'ios', status: 'running', variants: [{ id: 'a', weight: 100 }] },
  ],
};

describe("an app's live view", () => {
  it('holds the app, its running tests only (not their metrics), and the config it comes from', () => {
    expect(deliveryViewOf(data, 'web', stamp)).toEqual({
      app: {
        id: 'web',
        name: 'Web',
        platform: 'web',
        enabled: true,
        settings: { theme: 'dark', size: 2 },
      },
      ab_tests: [
        {
          id: 'hero',
          status: 'running',
          variants: [
            { id: 'a', weight: 50, settings: { theme: 'light' } },
            { id: 'b', weight: 50, settings: {} },
          ],
        },
      ],
      config: stamp,
    });
  });

  it('says enabled: false and empty settings as the config says, and nothing of other apps', () => {
    const view = deliveryViewOf(data, 'ios', stamp);
    expect(view?.app).toEqual({
      id: 'ios',
      name: 'iOS',
      platform: 'ios',
      enabled: false,
      settings: {},
    });
    expect(view?.ab_tests.map((test) => test.id)).toEqual(['other']);
  });

  it('is undefined for an app the config does not have', () => {
    expect(deliveryViewOf(data, 'android', stamp)).toBeUndefined();
    expect(deliveryViewOf(null, 'web', stamp)).toBeUndefined();
    expect(appIdsOf(data)).toEqual(['web', 'ios']);
  });
});
