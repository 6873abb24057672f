/** The config a command reads or pushes onto: `live` (the default) or an id. */
import type { ConfigRecord } from '../contract/configs';
import type { ServiceClient } from './service-client';

export function readConfig(
  client: ServiceClient,
  which: string | undefined,
): Promise<ConfigRecord> {
  return which === undefined || which === 'live'
    ? client.call('getLiveConfig')
    : client.call('getConfig', { params: { id: which } });
}
