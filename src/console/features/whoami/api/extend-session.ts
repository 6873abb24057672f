/** `POST /auth/refresh`: "Stay signed in" restarts the session's idle timer (not its end). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { authStatusQueryOptions } from '../../../lib/auth';
import { signInEndpoints } from '../../../../contract/sign-in-endpoints';

export function useExtendSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(signInEndpoints.extendSession),
    onSuccess: (status) => queryClient.setQueryData(authStatusQueryOptions().queryKey, status),
  });
}
