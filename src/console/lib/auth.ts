/**
 * Who the caller is (`GET /auth/status`): the session-wide resource every page needs (the
 * whoami panel, the permissions that decide what is offered), so it lives in lib like
 * bulletproof-react's lib/auth. Signing in and out is in lib/sign-in.ts.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { AuthStatus } from '../../contract/auth-status';
import { apiRequest, type RequestOptions } from './api-client';
import { connectionStore, useConnection, type Connection } from './connection';
import { statusEndpoints } from '../../contract/status-endpoints';

export const authKeys = {
  all: ['auth'] as const,
};

export function getAuthStatus(
  options: Pick<RequestOptions<typeof statusEndpoints.getAuthStatus>, 'signal' | 'connection'> = {},
): Promise<AuthStatus> {
  return apiRequest(statusEndpoints.getAuthStatus, options);
}

/** Who a status is about: the same person signing in again keeps the page as it is. */
export function personOf(status: AuthStatus): string | null {
  return status.user_id ?? status.email ?? null;
}

export function authStatusQueryOptions() {
  return queryOptions({
    queryKey: [...authKeys.all, 'status'] as const,
    queryFn: async ({ signal }) => {
      const connection = connectionStore.getSnapshot().connection;
      const status = await getAuthStatus({ signal });
      if (connection) connectionStore.confirm(connection, personOf(status));
      return status;
    },
    staleTime: 60_000,
  });
}

/**
 * The auth status of the connection; idle while signed out. It never keeps a session
 * alive: the server does not count GET /auth/status as activity.
 */
export function useAuthStatus() {
  const connection = useConnection();
  return useQuery({ ...authStatusQueryOptions(), enabled: connection !== null });
}

/**
 * Cached responses belong to whoever fetched them: when the connection changes (sign in,
 * sign out, a 401), the cache is emptied. The same session renewed in place keeps it.
 */
export function useClearCacheOnConnectionChange(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let last = identityOf(connectionStore.getSnapshot().connection);
    return connectionStore.subscribe(() => {
      const next = identityOf(connectionStore.getSnapshot().connection);
      if (next === last) return;
      last = next;
      queryClient.clear();
    });
  }, [queryClient]);
}

function identityOf(connection: Connection | null): string {
  return connection ? `${connection.baseUrl} ${connection.apiKey ?? 'session'}` : '';
}
