/** `DELETE /api-keys/{id}`: revoke a key; revoking the key in use signs out. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '../../../../contract/api-keys';
import { apiRequest } from '../../../lib/api-client';
import { useSignOut } from '../../../lib/sign-in';
import { apiKeysKeys } from './get-api-keys';
import { apiKeyEndpoints } from '../../../../contract/api-key-endpoints';

export function revokeApiKey(id: string): Promise<ApiKey> {
  return apiRequest(apiKeyEndpoints.revokeApiKey, { params: { id } });
}

export function useRevokeApiKey({ keyInUseId }: { keyInUseId: string | undefined }) {
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: async (revoked) => {
      // The key in use fails from the next request on: sign out before anything refetches.
      if (revoked.id === keyInUseId) {
        signOut({ kind: 'revoked-own-key' });
        return;
      }
      await queryClient.invalidateQueries({ queryKey: apiKeysKeys.list() });
    },
  });
}
