/**
 * The contract table's sign-in endpoints: how a person may sign in, signing in (SSO or a
 * password), a console session from an API key, staying signed in and signing out
 * (docs/people.md). The browser ones (`signIn`, `signInCallback`) answer with redirects,
 * never JSON: a failed sign-in lands on the console's sign-in page, which says what went
 * wrong in words.
 */
import { authStatusSchema } from './auth-status';
import { endpoint, namedEndpoints, problems } from './endpoint-kit';
import {
  passwordSignInRequestSchema,
  signInCallbackQuerySchema,
  signInOptionsSchema,
  signInQuerySchema,
  signOutResultSchema,
} from './people';
import { z } from './zod';

export const signInEndpoints = namedEndpoints({
  getSignInOptions: endpoint({
    method: 'GET',
    path: '/auth/options',
    summary: 'How a person with this email may sign in: password, SSO, or both',
    description:
      'The same answer for an email nobody uses as for a member who has no password, so that it tells nobody who is a member.',
    tag: 'people',
    seed: false,
    auth: 'public',
    permission: null,
    query: z.strictObject({ email: signInQuerySchema.shape.email }),
    responses: { 200: signInOptionsSchema, ...problems(400, 429) },
  }),
  signIn: endpoint({
    method: 'GET',
    path: '/auth/login',
    summary: "Start signing in with the organization's identity provider (a redirect)",
    description:
      'Redirects to the identity provider (authorization code with PKCE, state and nonce), or, when no identity provider serves the organization or email, to the console sign-in page with an error.',
    tag: 'people',
    seed: false,
    auth: 'public',
    permission: null,
    query: signInQuerySchema,
    responses: { 302: null, ...problems(400, 429) },
  }),
  signInCallback: endpoint({
    method: 'GET',
    path: '/auth/callback',
    summary: "The identity provider's redirect back; starts a session (a redirect)",
    description:
      'On success, sets the session cookie and redirects to the console; on any failure (the provider refused, a stale or tampered state, an unverified email, a person the organization does not know) redirects to the console sign-in page naming the reason.',
    tag: 'people',
    seed: false,
    auth: 'public',
    permission: null,
    query: signInCallbackQuerySchema,
    responses: { 302: null, ...problems(400, 429) },
  }),
  signInWithPassword: endpoint({
    method: 'POST',
    path: '/auth/password',
    summary: 'Sign in with an email and a local password; starts a session',
    description:
      'The same 401 (sign_in_failed) and about the same time for an unknown email as for a wrong password. Repeated failures for one email or from one address get 429 with Retry-After.',
    tag: 'people',
    seed: false,
    auth: 'public',
    permission: null,
    body: passwordSignInRequestSchema,
    bodyRequired: true,
    responses: { 200: authStatusSchema, ...problems(400, 401, 403, 413, 415, 429, 503) },
  }),
  startKeySession: endpoint({
    method: 'POST',
    path: '/auth/key-session',
    summary: 'Exchange the API key in Authorization for a console session tied to it',
    description:
      'The browser keeps the session cookie, never the key. Revoking the key ends the session at its next request.',
    tag: 'people',
    seed: false,
    auth: 'signed_in',
    permission: null,
    responses: { 200: authStatusSchema, ...problems(401, 403, 429, 503) },
  }),
  extendSession: endpoint({
    method: 'POST',
    path: '/auth/refresh',
    summary: 'Stay signed in: restart the idle timer of this session (not its absolute end)',
    tag: 'people',
    seed: false,
    auth: 'signed_in',
    permission: null,
    personLevel: true,
    responses: { 200: authStatusSchema, ...problems(401, 403, 429, 503) },
  }),
  signOut: endpoint({
    method: 'POST',
    path: '/auth/logout',
    summary: 'End this session on the server; a replayed cookie then gets 401',
    tag: 'people',
    seed: false,
    auth: 'signed_in',
    permission: null,
    personLevel: true,
    responses: { 200: signOutResultSchema, ...problems(401, 403, 429, 503) },
  }),
});
