/** `GET /client-keys`: the account's client keys, page by page. A 404: not offered. */
import { useListPages } from '../../../lib/list-pages';
import { queryKeysOf } from '../../../lib/resource-queries';

export const clientKeysKeys = queryKeysOf('client-keys');

/** The keys read so far (null when the server does not offer client keys). */
export function useClientKeys({ enabled }: { enabled: boolean }) {
  return useListPages('listClientKeys', { key: clientKeysKeys.pages(), optional: true, enabled });
}
