/**
 * DeliveryReads on the store: a client key and its account's live stamp read from the
 * database on every request (a publish or a revoke, in this process or another, shows on
 * the next one), the view itself from the cache when the live config's (id, revision) was
 * seen before.
 */
import { deliveryViewOf, type LiveConfigStamp } from '../../configs/delivery-view';

import { keyCanRead } from '../domain/client-keys';
import { liveConfigData } from '../domain/live-config-data';
import type { Store } from '../store/store';

import type { DeliveryReads } from './delivery-reads';
import type { CachedAppView, DeliveryViewCache } from './view-cache';
import type { ClientKeyRecord, DeliveryKeyLookup } from '../store/records';

/** A value now, or later where the store must wait on I/O. */
type Eventually<T> = T | Promise<T>;

export interface DeliveryViewReads extends DeliveryReads {
  appView(accountId: string, appId: string): Promise<CachedAppView | undefined>;
  /**
   * What `GET /delivery/{key}/apps/{app}` answers, in one lookup: undefined for an unknown
   * or revoked key, an app outside its scope or not in the live config. Synchronous when
   * the store answers at once and the view is cached (the 304 path).
   */
  viewByKey(key: string, appId: string): Eventually<CachedAppView | undefined>;
  /** The live config's data (parsed once per config and process), for experiments. */
  configData(accountId: string, stamp: LiveConfigStamp): Promise<unknown>;
}

export function createDeliveryReads(deps: {
  readonly store: Store;
  readonly cache: DeliveryViewCache;
}): DeliveryViewReads {
  const { store, cache } = deps;

  const dataOf = (accountId: string, stamp: LiveConfigStamp) =>
    cache.configData(stamp, () => liveConfigData(store, accountId, stamp));

  const build = async (
    accountId: string,
    stamp: LiveConfigStamp,
    appId: string,
  ): Promise<CachedAppView | undefined> => {
    const view = deliveryViewOf(await dataOf(accountId, stamp), appId, stamp);
    return view && cache.keepView(stamp, appId, view);
  };

  const answer = (
    found: DeliveryKeyLookup | undefined,
    appId: string,
  ): Eventually<CachedAppView | undefined> => {
    if (!found?.live || !keyCanRead(found.key, appId)) return undefined;
    return cache.view(found.live, appId) ?? build(found.key.account_id, found.live, appId);
  };

  return {
    configData: dataOf,

    async clientKey(key: string): Promise<ClientKeyRecord | undefined> {
      const found = await store.findDeliveryKey(key);
      return found && found.key.revoked_at === null ? found.key : undefined;
    },

    async appView(accountId: string, appId: string): Promise<CachedAppView | undefined> {
      // The stamp alone: the config's text is read only when its views are not cached.
      const stamp = await store.getLiveStamp(accountId);
      if (!stamp) return undefined;
      return cache.view(stamp, appId) ?? build(accountId, stamp, appId);
    },

    changeStamp(accountId: string): Promise<string> {
      return store.getStreamStamp(accountId);
    },

    viewByKey(key: string, appId: string): Eventually<CachedAppView | undefined> {
      if (store.findDeliveryKeyNow) return answer(store.findDeliveryKeyNow(key), appId);
      return store.findDeliveryKey(key).then((found) => answer(found, appId));
    },
  };
}
