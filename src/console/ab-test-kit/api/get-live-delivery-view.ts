/**
 * An app's view as the delivery endpoints build it, here from the live config the console
 * already reads (no client key needed): the same builder (deliveryViewOf), run in the
 * operations worker, so a large config never stalls the page.
 */
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import type { ConfigRecord } from '../../../contract/configs';
import type { DeliveryView } from '../../../contract/delivery';
import { configsKeys } from '../../api/config-keys';
import { configQueryOptions, LIVE } from '../../api/get-config';
import { operationsClient } from '../../editor/operations-client';

export function liveDeliveryViewQueryOptions(live: ConfigRecord | undefined, appId: string) {
  // The id and revision name the text: keying by the YAML itself would hash megabytes.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return queryOptions({
    queryKey: [
      ...configsKeys.contents(live?.id ?? '', live?.revision ?? 0),
      'delivery-view',
      appId,
    ] as const,
    queryFn: live
      ? (): Promise<DeliveryView | null> =>
          operationsClient().run({
            kind: 'delivery-view',
            text: live.yaml,
            appId,
            // A published config never changes: its creation is when it was published.
            config: { id: live.id, revision: live.revision, published_at: live.created_at },
          })
      : skipToken,
    // One revision of a config never changes.
    staleTime: Infinity,
  });
}

export interface LiveDeliveryView {
  readonly isPending: boolean;
  readonly error: unknown;
  /** null: the live config has no such app. */
  readonly view: DeliveryView | null | undefined;
  refetch(): void;
}

/** The live config's view of `appId`, rebuilt when the live config changes. */
export function useLiveDeliveryView(appId: string): LiveDeliveryView {
  const live = useQuery(configQueryOptions(LIVE));
  const view = useQuery(liveDeliveryViewQueryOptions(live.data, appId));
  return {
    isPending: live.isPending || (live.data !== undefined && view.isPending),
    error: live.error ?? view.error,
    view: view.data,
    refetch: () => void (live.isError ? live.refetch() : view.refetch()),
  };
}
