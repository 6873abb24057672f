/** `POST /client-keys`: a new client key for apps (not a secret: it is built into them). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createClientKeyRequestSchema,
  type ClientKey,
  type CreateClientKeyRequest,
} from '../../../../contract/delivery';
import { apiRequest } from '../../../lib/api-client';
import { clientKeysKeys } from './get-client-keys';

export function createClientKey(request: CreateClientKeyRequest): Promise<ClientKey> {
  // The contract's own schema checks the body before it leaves.
  return apiRequest('createClientKey', { body: createClientKeyRequestSchema.parse(request) });
}

export function useCreateClientKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClientKey,
    // The answer is shown once, like a secret: dropped from the cache with its screen.
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeysKeys.list() }),
  });
}
