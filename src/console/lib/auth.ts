/**
 * Who the caller is (`GET /auth/status`): the session-wide resource every page needs (the
 * whoami panel, the permissions that decide what is offered), so it lives in lib like
 * bulletproof-react's lib/auth. Connecting checks a key with it before storing anything.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { AuthStatus } from '../../contract/auth-status';
import { apiRequest, ApiProblem, NetworkError, ResponseParseError } from './api-client';
import {
  connectionStore,
  useConnection,
  type AuthFailure,
  type Connection,
  type SignOutReason,
} from './connection';

export const authKeys = {
  all: ['auth'] as const,
};

export function getAuthStatus(
  options: { signal?: AbortSignal; connection?: Pick<Connection, 'baseUrl' | 'apiKey'> } = {},
): Promise<AuthStatus> {
  return apiRequest('getAuthStatus', options);
}

export function authStatusQueryOptions() {
  return queryOptions({
    queryKey: [...authKeys.all, 'status'] as const,
    queryFn: ({ signal }) => getAuthStatus({ signal }),
    staleTime: 60_000,
  });
}

/** The auth status of the stored connection; idle while not connected. */
export function useAuthStatus() {
  const connection = useConnection();
  return useQuery({ ...authStatusQueryOptions(), enabled: connection !== null });
}

export interface ConnectInput {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly remember: boolean;
}

/**
 * Checks the key with GET /auth/status and stores the connection only when that succeeds.
 */
export function useConnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ConnectInput) =>
      getAuthStatus({ connection: { baseUrl: input.baseUrl, apiKey: input.apiKey } }),
    onSuccess: (status, input) => {
      connectionStore.connect(input, input.remember);
      queryClient.setQueryData(authStatusQueryOptions().queryKey, status);
    },
  });
}

/** Forgets the key and every cached response. */
export function useSignOut(): (reason?: SignOutReason) => void {
  const queryClient = useQueryClient();
  return (reason) => {
    connectionStore.signOut(reason);
    queryClient.clear();
  };
}

/**
 * Cached responses belong to the key that fetched them: when the connection changes
 * (connect, sign out, a 401, another tab), the cache is emptied.
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
  return connection ? `${connection.baseUrl} ${connection.apiKey}` : '';
}

const FAILED_KEY: Record<AuthFailure, string> = {
  invalid: 'That API key is not valid.',
  revoked: 'That API key was revoked.',
  expired: 'That API key has expired.',
};

/** Why Connect failed, in words, for the settings form. */
export function describeConnectFailure(error: unknown, baseUrl: string): string {
  if (error instanceof ApiProblem) {
    if (error.status === 401) return FAILED_KEY[error.authFailure ?? 'invalid'];
    if (error.status === 404) return `There is no provisioning API at ${baseUrl}.`;
    if (error.status === 429) return 'Too many attempts. Wait a moment and try again.';
    if (error.status >= 500) return 'The server ran into a problem. Try again later.';
    return `The server refused the request: ${error.detail}`;
  }
  if (error instanceof NetworkError) return `The server could not be reached at ${baseUrl}.`;
  if (error instanceof ResponseParseError) {
    return `The server at ${baseUrl} did not answer like a provisioning API.`;
  }
  return 'Connecting failed. Try again.';
}

const SIGNED_OUT_BECAUSE: Record<AuthFailure, string> = {
  invalid: 'Your API key is not valid. Connect with another key.',
  revoked: 'Your API key was revoked. Connect with another key.',
  expired: 'Your API key has expired. Connect with another key.',
};

/** Why the console signed out by itself, for the alert at the top of the settings. */
export function describeSignOutReason(reason: SignOutReason): string {
  if (reason.kind === 'revoked-own-key') {
    return 'You revoked the API key you were using. Connect with another key.';
  }
  return SIGNED_OUT_BECAUSE[reason.failure];
}

export const NOT_CONNECTED_MESSAGE = 'Connect with an API key to continue.';
