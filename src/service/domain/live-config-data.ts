/**
 * A live config's data read from the store, what delivery views and experiments are built
 * from: undefined when the config is gone or its text does not parse.
 */
import type { LiveConfigStamp } from '../../configs/delivery-view';
import { configData, parseConfig } from '../../configs/parse';
import type { Store } from '../store/store';

export async function liveConfigData(
  store: Store,
  accountId: string,
  stamp: LiveConfigStamp,
): Promise<unknown> {
  const text = (await store.getConfig(accountId, stamp.id))?.yaml;
  if (text === undefined) return undefined;
  const read = configData(parseConfig(text));
  return read.ok ? read.data : undefined;
}
