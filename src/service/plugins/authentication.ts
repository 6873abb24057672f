/**
 * Authentication, one plugin per app: an API key (`Authorization: Bearer`) or, without one,
 * the session cookie. It identifies the caller once a request (`request.principal`, or why
 * it is refused): first thing where the rate limit counts, else when a route that needs a
 * caller admits it, in preParsing, before the body is read. A session's changes must also
 * pass the CSRF checks (sessionRequestRefusal).
 */
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyRequest,
  onRequestHookHandler,
} from 'fastify';
import type { Permission } from '../../contract/auth-status';
import { CLIENT_KEY_PREFIX } from '../../contract/delivery';
import { API_BASE_PATH } from '../../contract/endpoint-kit';
import type { UnauthenticatedCode } from '../../contract/problem';
import { ACCOUNT_HEADER } from '../../contract/request-headers';
import { AccountSelection } from '../domain/account-selection';
import { HttpProblem } from '../http-problem';
import { hashSecret, isWellFormedSecret } from '../domain/api-key-secrets';
import type { Clock } from '../domain/clock';
import type { KeyPrincipal, Principal } from '../store/records';
import type { SessionExpiry, Sessions } from '../domain/sessions';
import { sessionRequestRefusal, type SessionCookies } from './session-cookies';
import type { Store } from '../store/store';

const REALM = 'Bearer realm="provisioning"';
/** `GET /auth/status`: read without extending the session's idle time. */
const STATUS_ROUTE = `${API_BASE_PATH}/auth/status`;
const MAX_ACCOUNT_ID_LENGTH = 100;
/** last_used_at is written at most this often per key, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

/** Why a request has no principal, with the 401 it gets on a route that needs a key. */
const REFUSALS = {
  missing: { code: 'unauthenticated', detail: 'Send an API key: Authorization: Bearer <key>' },
  malformed: { code: 'api_key_invalid', detail: 'The API key is malformed' },
  clientKey: {
    code: 'api_key_invalid',
    // ASCII only: the detail is repeated in the WWW-Authenticate header.
    detail:
      'This is a client key (ck_...): a client key only reads the delivery URLs (/delivery/{client_key}/...); send an API key (sk_...)',
  },
  unknown: { code: 'api_key_invalid', detail: 'The API key is not known' },
  revoked: { code: 'api_key_revoked', detail: 'The API key was revoked' },
  expired: { code: 'api_key_expired', detail: 'The API key has expired' },
  sessionExpired: { code: 'session_expired', detail: 'The session has expired: sign in again' },
  sessionRevoked: { code: 'session_revoked', detail: 'The session was ended: sign in again' },
} as const satisfies Record<string, { code: UnauthenticatedCode; detail: string }>;

type KeyRefusal = keyof typeof REFUSALS;

/**
 * Credentials that were not sent get the bare RFC 6750 challenge; credentials that were
 * sent but fail get `error="invalid_token"`.
 */
function unauthorized(refusal: KeyRefusal): HttpProblem {
  const { code, detail } = REFUSALS[refusal];
  const challenge =
    refusal === 'missing'
      ? REALM
      : `${REALM}, error="invalid_token", error_description="${detail}"`;
  return HttpProblem.of(code, detail, {}, { 'www-authenticate': challenge });
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/** Tokens kept with their hash at most; the memo is emptied when full. */
const MAX_REMEMBERED_TOKENS = 1_000;

/**
 * SHA-256 of the keys in use, so that a client's every request does not hash its key again
 * (the price: recent keys stay in memory in clear). Only valid keys are kept, and the
 * principal is still read from the store on every request: a revocation applies at once.
 */
export class RememberedHashes {
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

/** A value now, or later where the store must wait on I/O (`Store.findPrincipalByKeyHashNow`). */
type Eventually<T> = T | Promise<T>;

export interface Authentication {
  /**
   * An onRequest hook, for what needs the caller before the route (the rate limit): sets
   * `request.principal` or `request.keyRefusal`, and never answers, so that what follows
   * sees every request. It goes on at once where the store answers at once (SQLite).
   */
  readonly identify: onRequestHookHandler;
  /**
   * The request's principal (identified now if `identify` has not run), its last use noted
   * once a minute; throws the request's 401 otherwise.
   */
  admit(request: FastifyRequest): Eventually<Principal>;
  /** This app's memo of key hashes (tests read its size). */
  readonly rememberedHashes: RememberedHashes;
}

declare module 'fastify' {
  interface FastifyInstance {
    authentication: Authentication;
  }
  interface FastifyContextConfig {
    /** The contract's `personLevel` (register-endpoint.ts sets it): no X-Account-Id needed. */
    personLevel?: boolean;
  }
  interface FastifyRequest {
    /** The caller: a key that is known, not revoked and not expired. */
    principal: Principal | undefined;
    /** Why there is no principal, once `identify` has run. */
    keyRefusal: KeyRefusal | undefined;
    /** When the request's session ends, if it came with one. */
    sessionExpiry: SessionExpiry | undefined;
  }
}

interface AuthenticationOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly sessions: Sessions;
  readonly cookies: SessionCookies;
}

const plugin: FastifyPluginAsync<AuthenticationOptions> = async (
  app,
  { store, clock, sessions, cookies },
) => {
  const rememberedHashes = new RememberedHashes();
  const selection = new AccountSelection(store);

  /** The session named by the request's cookie, judged now. */
  const identifySession = async (request: FastifyRequest, token: string): Promise<void> => {
    const found = await store.findSessionByHash(hashSecret(token));
    if (!found) {
      request.keyRefusal = 'sessionRevoked';
      return;
    }
    const judged = sessions.judge(found, clock());
    if ('principal' in judged) {
      request.principal = judged.principal;
      request.sessionExpiry = judged.expiresAt;
      return;
    }
    request.keyRefusal = judged.refusal === 'session_expired' ? 'sessionExpired' : 'sessionRevoked';
    if (judged.endReason !== null) await sessions.endFound(found, judged.endReason);
  };

  /** Notes what the key found means; keeps the hash only of a key that is in use. */
  const settle = (
    request: FastifyRequest,
    token: string,
    keyHash: string,
    found?: KeyPrincipal,
  ) => {
    let refusal: KeyRefusal | undefined;
    if (!found) refusal = 'unknown';
    else if (found.key.revoked_at !== null || found.user.removed_at) refusal = 'revoked';
    else if (
      found.key.expires_at !== null &&
      Date.parse(found.key.expires_at) <= clock().getTime()
    ) {
      refusal = 'expired';
    }
    if (refusal === undefined) {
      rememberedHashes.keep(token, keyHash);
      request.principal = found;
    } else {
      rememberedHashes.forget(token);
      request.keyRefusal = refusal;
    }
  };

  /** Sets `request.principal` or `request.keyRefusal`; a promise only where the store waits. */
  const identifyNow = (request: FastifyRequest): Promise<void> | undefined => {
    const token = bearerToken(request);
    if (token === undefined) {
      const sessionToken = cookies.tokenOf(request.headers.cookie);
      if (sessionToken !== undefined) return identifySession(request, sessionToken);
    }
    if (token === undefined || !isWellFormedSecret(token)) {
      if (token === undefined) request.keyRefusal = 'missing';
      else request.keyRefusal = token.startsWith(CLIENT_KEY_PREFIX) ? 'clientKey' : 'malformed';
      return undefined;
    }
    const keyHash = rememberedHashes.of(token);
    if (store.findPrincipalByKeyHashNow) {
      settle(request, token, keyHash, store.findPrincipalByKeyHashNow(keyHash));
      return undefined;
    }
    return store
      .findPrincipalByKeyHash(keyHash)
      .then((found) => settle(request, token, keyHash, found));
  };

  const identify: onRequestHookHandler = (request, _reply, done) => {
    const waiting = identifyNow(request);
    if (waiting) waiting.then(() => done(), done);
    else done();
  };

  /** The principal acting on the account the request names, if it names another. */
  const actingOn = (request: FastifyRequest, principal: Principal): Eventually<Principal> => {
    const named = request.headers[ACCOUNT_HEADER];
    // A key's request (or a key's session) that names no other account acts on the key's:
    // nothing to look up (the common case). Only a person's own session may be ambiguous.
    const keyOnly = !principal.session || principal.key !== null;
    if (named === undefined ? keyOnly : named === principal.account.id) return principal;
    if (Array.isArray(named) || (named !== undefined && named.length > MAX_ACCOUNT_ID_LENGTH)) {
      throw HttpProblem.of('invalid_request', 'Send one X-Account-Id naming an account (acc_…)');
    }
    const personLevel = request.routeOptions.config.personLevel === true;
    if (named === undefined && personLevel) return principal;
    return selection.actOn(principal, named, personLevel).then((acting) => {
      request.principal = acting;
      return acting;
    });
  };

  const admitIdentified = (request: FastifyRequest): Eventually<Principal> => {
    const identified = request.principal;
    if (identified === undefined) throw unauthorized(request.keyRefusal ?? 'missing');
    const acting = actingOn(request, identified);
    return acting instanceof Promise
      ? acting.then((principal) => admitActing(request, principal))
      : admitActing(request, acting);
  };

  const admitActing = (request: FastifyRequest, principal: Principal): Eventually<Principal> => {
    const now = clock();
    if (principal.session) {
      const refusal = sessionRequestRefusal(request, cookies.serviceOrigin(request));
      if (refusal) throw refusal;
      // Reading who one is does not count as activity: a poll would keep a session forever.
      if (request.routeOptions.url === STATUS_ROUTE) return principal;
      return sessions.touch(principal.session, now).then(() => principal);
    }
    if (principal.key === null) return principal;
    const lastUsed =
      principal.key.last_used_at === null ? 0 : Date.parse(principal.key.last_used_at);
    if (now.getTime() - lastUsed >= TOUCH_INTERVAL_MS) {
      return store.touchApiKey(principal.key.id, now.toISOString()).then(() => principal);
    }
    return principal;
  };

  const admit = (request: FastifyRequest): Eventually<Principal> => {
    if (request.principal === undefined && request.keyRefusal === undefined) {
      const waiting = identifyNow(request);
      if (waiting) return waiting.then(() => admitIdentified(request));
    }
    return admitIdentified(request);
  };

  // Declared up front, so that every request object has the same shape from the start: a
  // field added later makes V8 look up Fastify's request fields the slow, polymorphic way.
  app.decorateRequest('principal', undefined);
  app.decorateRequest('keyRefusal', undefined);
  app.decorateRequest('sessionExpiry', undefined);
  app.decorate('authentication', { identify, admit, rememberedHashes });
};

/**
 * Registered with `app.register(authentication, {store, clock})`. Not encapsulated (Fastify's
 * `skip-override`, what fastify-plugin sets), so that its decorators serve the whole app.
 */
export const authentication = Object.assign(plugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'authentication',
});

/** The app's authentication; registering a route that needs it before the plugin is a bug. */
export function authenticationOf(app: FastifyInstance): Authentication {
  if (!app.hasDecorator('authentication')) {
    throw new Error('Register the authentication plugin before the routes and the rate limit');
  }
  return app.authentication;
}

export function requirePermission(principal: Principal, permission: Permission): void {
  if (principal.permissions.includes(permission)) return;
  throw HttpProblem.of(
    'forbidden',
    principal.key
      ? `This API key lacks the permission ${permission}`
      : `Your role (${principal.user.role}) lacks the permission ${permission}`,
    {},
    { 'www-authenticate': `${REALM}, error="insufficient_scope", scope="${permission}"` },
  );
}
