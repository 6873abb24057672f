/**
 * Signing in and out: what a sign-in's answer does to the connection (the same person
 * resumes an interrupted session; another does not), "Use an API key", sign-out, and why
 * either failed, in words. Apart from lib/auth.ts, which every page loads first: only the
 * pages that sign in or out load this.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthStatus } from '../../contract/auth-status';
import { apiRequest, ApiProblem, NetworkError, ResponseParseError } from './api-client';
import { authStatusQueryOptions, getAuthStatus, personOf } from './auth';
import {
  connectionStore,
  isSameOrigin,
  normalizeBaseUrl,
  type AuthFailure,
  type Connection,
  type SignOutReason,
} from './connection';
import { signInEndpoints } from '../../contract/sign-in-endpoints';

export type SignInOutcome = 'signed-in' | 'resumed' | 'other-person';

/**
 * A sign-in answered `status`. While a session had ended under the page, the same person
 * resumes it (the waiting requests go on, nothing is unmounted); another person does not.
 */
export function useFinishSignIn(): (status: AuthStatus, connection: Connection) => SignInOutcome {
  const queryClient = useQueryClient();
  return (status, connection) => {
    const before = connectionStore.getSnapshot();
    const person = personOf(status);
    if (before.interrupted !== null && before.person !== null && person !== before.person) {
      return 'other-person';
    }
    connectionStore.signIn(connection, person);
    queryClient.setQueryData(authStatusQueryOptions().queryKey, status);
    return before.interrupted !== null ? 'resumed' : 'signed-in';
  };
}

export interface KeyInput {
  readonly baseUrl: string;
  readonly apiKey: string;
}

export interface KeySignIn {
  readonly status: AuthStatus;
  readonly connection: Connection;
}

function isNotASessionServer(error: unknown): boolean {
  return error instanceof ApiProblem && (error.status === 404 || error.status === 405);
}

/**
 * "Use an API key": on this origin the key is exchanged for a session (the server sets the
 * cookie) and dropped. Another origin, or a server without sessions, keeps the key in memory
 * for this tab, after GET /auth/status has checked it.
 */
export async function signInWithKey(input: KeyInput): Promise<KeySignIn> {
  const baseUrl = normalizeBaseUrl(input.baseUrl);
  const withKey: Connection = { baseUrl, apiKey: input.apiKey };
  if (isSameOrigin(baseUrl)) {
    try {
      const status = await apiRequest(signInEndpoints.startKeySession, { connection: withKey });
      return { status, connection: { baseUrl, apiKey: null } };
    } catch (error) {
      if (!isNotASessionServer(error)) throw error;
    }
  }
  return { status: await getAuthStatus({ connection: withKey }), connection: withKey };
}

/** The mutation behind every "Use an API key" form. */
export function useSignInWithKey(onDone: (outcome: SignInOutcome, status: AuthStatus) => void) {
  const finish = useFinishSignIn();
  return useMutation({
    mutationFn: signInWithKey,
    onSuccess: ({ status, connection }) => onDone(finish(status, connection), status),
  });
}

/**
 * Signs out: the session ends on the server (a replayed cookie then gets 401), then the
 * console forgets the connection and every cached response. A key held in memory is dropped.
 */
export function useSignOut(): (reason?: SignOutReason) => Promise<void> {
  const queryClient = useQueryClient();
  return async (reason) => {
    const { connection } = connectionStore.getSnapshot();
    let ended: SignOutReason = reason ?? { kind: 'signed-out' };
    if (connection?.apiKey === null && reason === undefined) {
      const status = queryClient.getQueryData(authStatusQueryOptions().queryKey);
      try {
        const result = await apiRequest(signInEndpoints.signOut, { connection });
        if (result.idp_logout_url !== undefined) {
          ended = {
            kind: 'signed-out',
            idpLogoutUrl: result.idp_logout_url,
            idpName: status?.sign_in_name,
          };
        }
      } catch {
        // An ended session is signed out already; the console forgets it all the same.
      }
    }
    connectionStore.signOut(ended);
    queryClient.clear();
  };
}

const FAILED_KEY: Record<AuthFailure, string> = {
  invalid: 'That API key is not valid.',
  revoked: 'That API key was revoked.',
  expired: 'That API key has expired.',
};

/** Why "Use an API key" failed, in words, for its form. */
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
  return 'Signing in failed. Try again.';
}

const SIGNED_OUT_BECAUSE: Record<AuthFailure, string> = {
  invalid: 'Your API key is not valid. Sign in again.',
  revoked: 'Your API key was revoked. Sign in again.',
  expired: 'Your API key has expired. Sign in again.',
};

const SESSION_ENDED_BECAUSE: Record<AuthFailure, string> = {
  invalid: 'Your session is no longer valid. Sign in again.',
  revoked: 'Your session was ended. Sign in again.',
  expired: 'Your session has expired. Sign in again.',
};

/** Why the console signed out by itself, for the alert at the top of the sign-in page. */
export function describeSignOutReason(reason: SignOutReason): string | null {
  if (reason.kind === 'revoked-own-key') {
    return 'You revoked the API key you were using. Sign in again.';
  }
  if (reason.kind === 'signed-out') return 'You are signed out.';
  if (reason.kind === 'session-ended') return SESSION_ENDED_BECAUSE[reason.failure];
  return SIGNED_OUT_BECAUSE[reason.failure];
}
