/** `DELETE /client-keys/{id}`: its delivery URLs answer 404 from the next request on. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientKey } from '../../../../contract/delivery';
import { apiRequest } from '../../../lib/api-client';
import { clientKeysKeys } from './get-client-keys';
import { deliveryEndpoints } from '../../../../contract/delivery-endpoints';

export function revokeClientKey(id: string): Promise<ClientKey> {
  return apiRequest(deliveryEndpoints.revokeClientKey, { params: { id } });
}

export function useRevokeClientKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeClientKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeysKeys.list() }),
  });
}
