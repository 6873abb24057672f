/** `GET /client-keys`: the account's client keys, page by page. A 404: not offered. */
import { useListPages } from '../../../lib/list-pages';
import { queryKeysOf } from '../../../lib/resource-queries';
import { deliveryEndpoints } from '../../../../contract/delivery-endpoints';

export const clientKeysKeys = queryKeysOf('client-keys');

/** The keys read so far (null when the server does not offer client keys). */
export function useClientKeys({ enabled }: { enabled: boolean }) {
  return useListPages(deliveryEndpoints.listClientKeys, {
    key: clientKeysKeys.pages(),
    optional: true,
    enabled,
  });
}
