/** `POST /api-keys`: a new key; its secret is in this response only. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createApiKeyRequestSchema,
  type CreateApiKeyRequest,
  type CreatedApiKey,
} from '../../../../contract/api-keys';
import { apiRequest } from '../../../lib/api-client';
import { apiKeysKeys } from './get-api-keys';
import { apiKeyEndpoints } from '../../../../contract/api-key-endpoints';

export function createApiKey(request: CreateApiKeyRequest): Promise<CreatedApiKey> {
  // The contract's own schema checks the body before it leaves.
  return apiRequest(apiKeyEndpoints.createApiKey, {
    body: createApiKeyRequestSchema.parse(request),
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    // The answer holds the secret: the form resets the mutation once it has it, and with no
    // observer left and gcTime 0 the cache drops it at once (a mounted form would keep it).
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKeys.list() }),
  });
}
