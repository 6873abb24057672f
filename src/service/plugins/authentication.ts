/**
 * API key authentication (api.md §1): `Authorization: Bearer sk_...`, looked up by SHA-256.
 * Missing credentials get the bare RFC 6750 challenge; presented but bad ones (malformed,
 * unknown, revoked, expired) get `error="invalid_token"`; a missing permission gets 403 with
 * `error="insufficient_scope"`. Revocation and expiry apply on the very next request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission } from '../../contract/auth-status';
import { HttpProblem } from '../http-problem';
import { hashSecret, isWellFormedSecret } from '../domain/api-key-secrets';
import type { Clock } from '../domain/clock';
import type { Principal } from '../store/records';
import type { Store } from '../store/store';

const REALM = 'Bearer realm="provisioning"';
/** last_used_at is written at most this often per key, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

function unauthorized(detail: string, presented: boolean): HttpProblem {
  return HttpProblem.of(
    'unauthenticated',
    detail,
    {},
    {
      'www-authenticate': presented
        ? `${REALM}, error="invalid_token", error_description="${detail}"`
        : REALM,
    },
  );
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key lookup of this request, made once (the rate limit may need it first). */
    keyLookup?: { token: string; principal: Principal | undefined };
  }
}

/**
 * Declares the request fields authentication sets, so that every request object has them
 * from the start: a field added later changes the object's hidden class, and V8 then runs
 * Fastify's code for requests through slower, polymorphic property lookups.
 */
export function declareAuthenticationFields(app: FastifyInstance): void {
  app.decorateRequest('keyLookup', undefined);
  app.decorateRequest('principal', undefined);
}

/** The key, user and account a bearer token names, looked up at most once a request. */
export async function lookUpKey(
  store: Store,
  request: FastifyRequest,
  token: string,
): Promise<Principal | undefined> {
  if (request.keyLookup?.token !== token) {
    request.keyLookup = { token, principal: await store.findPrincipalByKeyHash(hashSecret(token)) };
  }
  return request.keyLookup.principal;
}

export async function authenticate(
  store: Store,
  clock: Clock,
  request: FastifyRequest,
): Promise<Principal> {
  const token = bearerToken(request);
  if (token === undefined)
    throw unauthorized('Send an API key: Authorization: Bearer <key>', false);
  if (!isWellFormedSecret(token)) throw unauthorized('The API key is malformed', true);
  const principal = await lookUpKey(store, request, token);
  if (!principal) throw unauthorized('The API key is not known', true);
  const now = clock();
  if (principal.key.revoked_at !== null) throw unauthorized('The API key was revoked', true);
  if (principal.key.expires_at !== null && Date.parse(principal.key.expires_at) <= now.getTime()) {
    throw unauthorized('The API key has expired', true);
  }
  const lastUsed = principal.key.last_used_at === null ? 0 : Date.parse(principal.key.last_used_at);
  if (now.getTime() - lastUsed >= TOUCH_INTERVAL_MS)
    await store.touchApiKey(principal.key.id, now.toISOString());
  return principal;
}

export function requirePermission(principal: Principal, permission: Permission): void {
  if (principal.key.permissions.includes(permission)) return;
  throw HttpProblem.of(
    'forbidden',
    `This API key lacks the permission ${permission}`,
    {},
    { 'www-authenticate': `${REALM}, error="insufficient_scope", scope="${permission}"` },
  );
}
