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

/** Tokens kept with their hash at most; the memo is emptied when full. */
const MAX_REMEMBERED_TOKENS = 1_000;

/**
 * SHA-256 of the keys in use, so that a client's every request does not hash its key
 * again: in place, under load, that hash was a tenth of the service's CPU on GET /auth/status
 * (docs/benchmarks.md). Only keys that are known and not revoked are kept, a key is dropped
 * when it stops being one, and every change to the database empties the principals the
 * hashes lead to, so a revocation still applies on the very next request. The price: the
 * process's memory holds the keys of recent clients in clear, as it holds every request's
 * Authorization header while it runs (docs/operations.md).
 */
class RememberedHashes {
  private readonly byToken = new Map<string, string>();

  of(token: string): string {
    return this.byToken.get(token) ?? hashSecret(token);
  }

  keep(token: string, keyHash: string): void {
    if (this.byToken.has(token)) return;
    if (this.byToken.size >= MAX_REMEMBERED_TOKENS) this.byToken.clear();
    this.byToken.set(token, keyHash);
  }

  forget(token: string): void {
    this.byToken.delete(token);
  }

  get size(): number {
    return this.byToken.size;
  }
}

export const rememberedHashes = new RememberedHashes();

/** A value now, or later where the store must wait on I/O (`Store.findPrincipalByKeyHashNow`). */
type Eventually<T> = T | Promise<T>;

/**
 * The key, user and account a bearer token names, looked up at most once a request: at
 * once in a store that can (SQLite), so that the request does not wait a turn of the
 * microtask queue per step on the way.
 */
export function lookUpKey(
  store: Store,
  request: FastifyRequest,
  token: string,
): Eventually<Principal | undefined> {
  if (request.keyLookup?.token === token) return request.keyLookup.principal;
  const keyHash = rememberedHashes.of(token);
  const remember = (principal: Principal | undefined) => {
    if (principal && principal.key.revoked_at === null) rememberedHashes.keep(token, keyHash);
    else rememberedHashes.forget(token);
    request.keyLookup = { token, principal };
    return principal;
  };
  return store.findPrincipalByKeyHashNow
    ? remember(store.findPrincipalByKeyHashNow(keyHash))
    : store.findPrincipalByKeyHash(keyHash).then(remember);
}

/** The request's principal; an HttpProblem, thrown or rejected, is the answer otherwise. */
export function authenticate(
  store: Store,
  clock: Clock,
  request: FastifyRequest,
): Eventually<Principal> {
  const token = bearerToken(request);
  if (token === undefined)
    throw unauthorized('Send an API key: Authorization: Bearer <key>', false);
  if (!isWellFormedSecret(token)) throw unauthorized('The API key is malformed', true);
  const found = lookUpKey(store, request, token);
  return found instanceof Promise
    ? found.then((principal) => admit(store, clock, token, principal))
    : admit(store, clock, token, found);
}

/** A known key that is neither revoked nor expired; its last use is noted once a minute. */
function admit(
  store: Store,
  clock: Clock,
  token: string,
  principal: Principal | undefined,
): Eventually<Principal> {
  if (!principal) throw unauthorized('The API key is not known', true);
  const now = clock();
  if (principal.key.revoked_at !== null) throw unauthorized('The API key was revoked', true);
  if (principal.key.expires_at !== null && Date.parse(principal.key.expires_at) <= now.getTime()) {
    rememberedHashes.forget(token);
    throw unauthorized('The API key has expired', true);
  }
  const lastUsed = principal.key.last_used_at === null ? 0 : Date.parse(principal.key.last_used_at);
  if (now.getTime() - lastUsed >= TOUCH_INTERVAL_MS) {
    return store.touchApiKey(principal.key.id, now.toISOString()).then(() => principal);
  }
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
