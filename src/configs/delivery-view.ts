/**
 * An app's live view (docs/delivery.md): what the delivery endpoints send and the client
 * library assigns from, built from the live config's data. The live config is valid, so
 * the reading here is plain; an entry that is not what the schema says is left out rather
 * than trusted.
 */
import type { DeliveryView } from '../contract/delivery';
import { readConfigContents } from './config-contents';
import { isPlainObject } from './data';

export interface LiveConfigStamp {
  readonly id: string;
  readonly revision: number;
  /** When it was published (its creation: a published config never changes). */
  readonly published_at: string;
}

/** The ids of the apps of a config, in order. */
export function appIdsOf(data: unknown): string[] {
  return readConfigContents(data).apps.map((app) => app.id);
}

/** The view of `appId` in a config's data; undefined when the config has no such app. */
export function deliveryViewOf(
  data: unknown,
  appId: string,
  config: LiveConfigStamp,
): DeliveryView | undefined {
  const contents = readConfigContents(data);
  const app = contents.apps.find((candidate) => candidate.id === appId);
  if (app === undefined) return undefined;
  const rawApps = isPlainObject(data) && Array.isArray(data.apps) ? data.apps : [];
  const raw: unknown = rawApps.find((entry) => isPlainObject(entry) && entry.id === appId);
  const platform = isPlainObject(raw) && typeof raw.platform === 'string' ? raw.platform : '';
  return {
    app: {
      id: app.id,
      name: app.name ?? app.id,
      platform,
      enabled: app.enabled,
      settings: { ...app.settings },
    },
    ab_tests: contents.abTests
      .filter((test) => test.app === appId && test.status === 'running')
      .map((test) => ({
        id: test.id,
        status: 'running',
        variants: test.variants.map((variant) => ({
          id: variant.id,
          weight: variant.weight ?? 0,
          settings: { ...variant.settings },
        })),
      })),
    config: { id: config.id, revision: config.revision, published_at: config.published_at },
  };
}
