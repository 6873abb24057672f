/** `POST /client-keys`: a new client key for apps (not a secret: it is built into them). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createClientKeyRequestSchema,
  type ClientKey,
  type CreateClientKeyRequest,
} from '../../../../contract/delivery';
import { apiRequest } from '../../../lib/api-client';
import { clientKeysKeys } from './get-client-keys';
import { deliveryEndpoints } from '../../../../contract/delivery-endpoints';

export function createClientKey(request: CreateClientKeyRequest): Promise<ClientKey> {
  // The contract's own schema checks the body before it leaves.
  return apiRequest(deliveryEndpoints.createClientKey, {
    body: createClientKeyRequestSchema.parse(request),
  });
}

export function useCreateClientKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClientKey,
    // The answer is shown once, like a secret: the form resets the mutation once it has it, and with no
    // observer left and gcTime 0 the cache drops it at once (a mounted form would keep it).
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeysKeys.list() }),
  });
}
