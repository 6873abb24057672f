/**
 * Apps' live views in memory, by (config id, revision, app id): a config's content under one
 * (id, revision) never changes, so an entry never goes stale; only which config is live
 * changes, and that is read from the store on every request. Bounded: the oldest entries go
 * first. A config's parsed data is kept too (fewer of them), so that its apps share one parse.
 */
import { hash } from 'node:crypto';
import type { LiveConfigStamp } from '../../configs/delivery-view';
import type { AppViewRead } from './delivery-reads';

/** A view with what answering it needs, computed once per entry. */
export interface CachedAppView extends AppViewRead {
  /** The view as JSON: the 200's body as it is sent. */
  readonly json: string;
}

export interface ViewCacheLimits {
  readonly views: number;
  readonly configs: number;
}

export const DEFAULT_VIEW_CACHE_LIMITS: ViewCacheLimits = { views: 2_000, configs: 8 };

/** A strong ETag naming the view's bytes. */
export function viewEtagOf(json: string): string {
  return `"${hash('sha256', json, 'base64url').slice(0, 27)}"`;
}

function setBounded<V>(map: Map<string, V>, key: string, value: V, limit: number): void {
  map.delete(key);
  // A Map iterates in insertion order: the first key is the oldest.
  while (map.size >= Math.max(limit, 1)) {
    const oldest = map.keys().next();
    if (oldest.done === true) break;
    map.delete(oldest.value);
  }
  map.set(key, value);
}

export class DeliveryViewCache {
  private readonly views = new Map<string, CachedAppView>();
  /** Parses in flight or done, shared by concurrent misses (a publish seen by many apps). */
  private readonly configs = new Map<string, Promise<unknown>>();

  constructor(private readonly limits: ViewCacheLimits = DEFAULT_VIEW_CACHE_LIMITS) {}

  view(stamp: LiveConfigStamp, appId: string): CachedAppView | undefined {
    return this.views.get(viewKey(stamp, appId));
  }

  /** The view of `appId` built from its JSON, kept and returned. */
  keepView(stamp: LiveConfigStamp, appId: string, view: AppViewRead['view']): CachedAppView {
    const json = JSON.stringify(view);
    const entry: CachedAppView = { view, etag: viewEtagOf(json), json };
    setBounded(this.views, viewKey(stamp, appId), entry, this.limits.views);
    return entry;
  }

  /** The config's data, parsed once by `load` however many ask at the same time. */
  configData(stamp: LiveConfigStamp, load: () => Promise<unknown>): Promise<unknown> {
    const key = configKey(stamp);
    const known = this.configs.get(key);
    if (known) return known;
    const loading = load();
    setBounded(this.configs, key, loading, this.limits.configs);
    // A failed read (the database away) is not kept: the next request tries again.
    loading.catch(() => {
      if (this.configs.get(key) === loading) this.configs.delete(key);
    });
    return loading;
  }

  get size(): { views: number; configs: number } {
    return { views: this.views.size, configs: this.configs.size };
  }
}

function configKey(stamp: LiveConfigStamp): string {
  return `${stamp.id}\n${stamp.revision}`;
}

function viewKey(stamp: LiveConfigStamp, appId: string): string {
  return `${stamp.id}\n${stamp.revision}\n${appId}`;
}
