/**
 * `GET /auth/status` (who the caller is, from their key or session) and the session's own
 * endpoints: a key exchanged for a session, "stay signed in", sign-out, your sessions.
 */
import type { FastifyInstance } from 'fastify';
import type { AuthStatus } from '../../contract/auth-status';
import type { Environments } from '../domain/environments';
import type { SessionExpiry, Sessions } from '../domain/sessions';
import { pagedList } from '../domain/pages';
import type { KeyPrincipal, Principal } from '../store/records';
import { HttpProblem } from '../http-problem';
import type { SessionCookies } from '../plugins/session-cookies';
import type { SsoSignIns } from '../sign-in/sso-sign-ins';
import { registerEndpoint } from './register-endpoint';

const sessionPages = pagedList('sessions', 2);

/** What a key adds to a status: its own fields, as the interface document names them. */
function keyFields({ key }: Pick<Principal, 'key'>): Partial<AuthStatus> {
  if (!key) return {};
  return {
    auth_type: 'api_key',
    api_key_id: key.id,
    api_key_name: key.name,
    api_key_obfuscated_value: key.obfuscated_value,
  };
}

/** Whether a caller owns their organization: a status reports it. */
export type OrganizationOwners = Pick<Environments, 'owns'>;

/** A status, with whether its person owns the organization looked up. */
export async function authStatusWithOwner(
  owners: OrganizationOwners,
  principal: Principal,
  expiry?: SessionExpiry,
): Promise<AuthStatus> {
  return authStatusOf(principal, await owners.owns(principal), expiry);
}

export function authStatusOf(
  principal: Principal,
  owner: boolean,
  expiry?: SessionExpiry,
): AuthStatus {
  const { key, user, account, session, person, organization } = principal;
  if (session && person && organization && expiry) {
    return {
      idp_organization_id: organization.id,
      email: person.email,
      idp_user_id: person.subject ?? person.id,
      account_id: account.id,
      user_id: user.id,
      role: user.role,
      ...keyFields(principal),
      session_id: session.id,
      expires_at: expiry.earlier.toISOString(),
      session_max_expires_at: expiry.max.toISOString(),
      session_method: session.method,
      ...(person.name ? { name: person.name } : {}),
      organization_id: organization.id,
      organization_name: organization.name,
      sign_in_name: signInNameOf(session.method, organization.name),
      account_type: account.account_type,
      permissions: [...principal.permissions],
      organization_owner: owner,
    };
  }
  // In the contract's order: the compiled serializer writes fields in that order anyway.
  return {
    idp_organization_id: account.organization_id ?? account.idp_organization_id,
    ...(key ? { auth_type: 'api_key' as const } : {}),
    email: user.email,
    idp_user_id: user.idp_user_id,
    account_id: account.id,
    user_id: user.id,
    role: user.role,
    ...(key?.expires_at ? { expires_at: key.expires_at } : {}),
    ...(key
      ? {
          api_key_id: key.id,
          api_key_name: key.name,
          api_key_obfuscated_value: key.obfuscated_value,
        }
      : {}),
    account_type: account.account_type,
    permissions: [...principal.permissions],
    organization_owner: owner,
  };
}

function signInNameOf(method: string, organizationName: string): string {
  if (method === 'sso') return `${organizationName} SSO`;
  return method === 'password' ? 'a password' : 'an API key';
}

export interface AuthRoutesDeps {
  readonly sessions: Sessions;
  readonly cookies: SessionCookies;
  readonly sso: SsoSignIns;
  readonly owners: OrganizationOwners;
}

export function registerAuthRoutes(app: FastifyInstance, deps: AuthRoutesDeps): void {
  const { sessions, cookies, owners } = deps;
  // A key's answer is a function of the principal alone, and a store that caches principals
  // (SqliteStore) hands out the same object until the key, user or account changes, so the
  // answer is serialized once per principal: this route is the one clients poll.
  const answers = new WeakMap<Principal, string>();
  registerEndpoint(app, 'getAuthStatus', async ({ principal, request, reply }) => {
    if (principal.session) {
      return { body: await authStatusWithOwner(owners, principal, request.sessionExpiry) };
    }
    const known = answers.get(principal);
    if (known !== undefined) return { serializedBody: known };
    // Naming an owner drops the store's memoised principals, so a new one asks again.
    const status = await authStatusWithOwner(owners, principal);
    const serialized = reply.serialize(status);
    // The route's serializer (fast-json-stringify, from the contract) writes strings.
    if (typeof serialized !== 'string') return { body: status };
    answers.set(principal, serialized);
    return { serializedBody: serialized };
  });

  registerEndpoint(app, 'signIn', async ({ request, reply, query }) => {
    reply.header('location', await deps.sso.begin(request, reply, query));
    return { status: 302, body: undefined };
  });

  registerEndpoint(app, 'signInCallback', async ({ request, reply }) => {
    const { location, started } = await deps.sso.complete(request, reply);
    if (started) reply.header('set-cookie', cookies.set(started.token));
    reply.header('location', location);
    return { status: 302, body: undefined };
  });

  registerEndpoint(app, 'startKeySession', async ({ principal, request, reply }) => {
    if (principal.session || !principal.key) {
      throw HttpProblem.of(
        'invalid_request',
        'Send the API key to exchange in Authorization: Bearer; this request came with a session',
      );
    }
    const started = await sessions.startFromKey(principal as KeyPrincipal, {
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
    });
    reply.header('set-cookie', cookies.set(started.token));
    return { body: await authStatusWithOwner(owners, started.principal, started.expiry) };
  });

  registerEndpoint(app, 'extendSession', async ({ principal }) => {
    const extended = await sessions.extend(principal);
    return { body: await authStatusWithOwner(owners, extended.principal, extended.expiry) };
  });

  registerEndpoint(app, 'signOut', async ({ principal, request, reply }) => {
    await sessions.signOut(principal);
    reply.header('set-cookie', cookies.cleared());
    const logoutUrl = await deps.sso.logoutUrlFor(principal, request);
    return { body: logoutUrl ? { idp_logout_url: logoutUrl } : {} };
  });

  registerEndpoint(app, 'listSessions', async ({ principal, query }) => {
    const page = await sessions.list(principal, sessionPages.request(query));
    return { body: page.items, nextCursor: sessionPages.cursorAfter(page) };
  });

  registerEndpoint(app, 'endSession', async ({ principal, params }) => {
    await sessions.endOwn(principal, params.id);
    return { status: 204, body: undefined };
  });

  registerEndpoint(app, 'endOtherSessions', async ({ principal }) => {
    return { body: { ended: await sessions.endOthers(principal) } };
  });
}
