/**
 * Signing in: what an email may sign in with (`GET /auth/options`), a password
 * (`POST /auth/password`), and the address that starts SSO (`GET /auth/login`, a full-page
 * navigation or a popup: the identity provider's pages are not ours to fetch).
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import { API_BASE_PATH } from '../../../../contract/endpoint-kit';
import type { PasswordSignInRequest } from '../../../../contract/people';
import { ApiProblem, apiRequest, describeError } from '../../../lib/api-client';
import { useFinishSignIn, type SignInOutcome } from '../../../lib/sign-in';
import { defaultBaseUrl } from '../../../lib/connection';
import type { AuthStatus } from '../../../../contract/auth-status';
import { signInEndpoints } from '../../../../contract/sign-in-endpoints';

export const signInKeys = {
  all: ['sign-in'] as const,
  options: (email: string) => [...signInKeys.all, 'options', email] as const,
};

export function signInOptionsQueryOptions(email: string) {
  return queryOptions({
    queryKey: signInKeys.options(email),
    queryFn: ({ signal }) =>
      apiRequest(signInEndpoints.getSignInOptions, { query: { email }, signal }),
    staleTime: 5 * 60_000,
  });
}

/** The password form's mutation; a session cookie is set by the answer. */
export function usePasswordSignIn(onDone: (outcome: SignInOutcome, status: AuthStatus) => void) {
  const finish = useFinishSignIn();
  return useMutation({
    mutationFn: (input: PasswordSignInRequest) =>
      apiRequest(signInEndpoints.signInWithPassword, { body: input }),
    onSuccess: (status) =>
      onDone(finish(status, { baseUrl: defaultBaseUrl(), apiKey: null }), status),
  });
}

/** Where "Continue with SSO" goes; the service comes back to `returnTo`, a console path. */
export function ssoSignInUrl(query: {
  email?: string;
  invitation?: string;
  returnTo?: string;
}): string {
  const search = new URLSearchParams();
  if (query.email !== undefined) search.set('email', query.email);
  if (query.invitation !== undefined) search.set('invitation', query.invitation);
  if (query.returnTo !== undefined) search.set('return_to', query.returnTo);
  return `${API_BASE_PATH}/auth/login?${search.toString()}`;
}

/** A failed sign-in in words: a wrong password, too many tries, or what the server said. */
export function describeSignInFailure(error: unknown): string {
  if (error instanceof ApiProblem) {
    if (error.status === 401) return 'The email or password is not right.';
    if (error.status === 429) {
      return error.retryAfterSeconds === undefined
        ? 'Too many tries; try again in a moment.'
        : `Too many tries; try again in ${secondsInWords(error.retryAfterSeconds)}.`;
    }
  }
  return describeError(error);
}

function secondsInWords(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  return whole === 1 ? '1 second' : `${whole} seconds`;
}

/** What the sign-in page says for each `?error=` the service sends it back with. */
export const SIGN_IN_ERROR_WORDS: Readonly<Record<string, string>> = {
  idp_error:
    'Your identity provider did not sign you in: it refused, or the sign-in was cancelled.',
  stale_request: 'The sign-in took too long or was interrupted. Please start again.',
  email_not_verified:
    'Your identity provider has not verified your email address, so it cannot be matched to a member.',
  not_a_member:
    'Your organization does not know you yet. Ask an administrator of the account for an invitation.',
  no_connection:
    'No identity provider is set up for that email. Sign in with a password, or ask your administrator.',
  invitation_unusable:
    'That invitation link has been used, revoked or has expired. Ask for a new one.',
  sso_disabled: 'Signing in with SSO is turned off for your organization.',
};

export function describeSignInError(code: string): string {
  return SIGN_IN_ERROR_WORDS[code] ?? 'Signing in did not work. Please try again.';
}
