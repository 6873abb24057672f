/**
 * Signing in through an OpenID Connect provider: the redirect there, the callback back, and
 * the provider's sign-out page. The provider's answers are checked by the relying party
 * (code with PKCE, state, nonce, the ID token's signature); who the person is here is the
 * domain's decision (domain/sign-ins.ts). The short-lived transaction rides in its own
 * sealed cookie, SameSite=Lax: the callback is a cross-site navigation.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignInError } from '../../contract/people';
import { API_BASE_PATH } from '../../contract/endpoint-kit';
import type { SessionCookies } from '../plugins/session-cookies';
import type { SignIns } from '../domain/sign-ins';
import type { ChosenConnection, VerifiedIdentity } from '../domain/sso-identity';
import { SignInRefused } from '../domain/sso-identity';
import type { StartedSession } from '../domain/sessions';
import type { Principal } from '../store/records';
import { RelyingPartyError } from './oidc-relying-party';

/** What the relying party needs of a connection. */
export interface RelyingPartyConnection {
  readonly issuer: string;
  readonly client_id: string;
  readonly client_secret: string;
  readonly groups_claim: string;
}

/** The OpenID Connect client (sign-in/oidc-relying-party.ts). */
export interface RelyingParty {
  begin(input: {
    readonly connection: RelyingPartyConnection;
    readonly redirectUri: string;
  }): Promise<{ readonly authorizationUrl: string; readonly transaction: OidcTransaction }>;
  complete(input: {
    readonly connection: RelyingPartyConnection;
    readonly redirectUri: string;
    readonly callbackUrl: URL;
    readonly transaction: OidcTransaction;
  }): Promise<VerifiedIdentity & { readonly idToken?: string }>;
  logoutUrl(input: {
    readonly connection: RelyingPartyConnection;
    readonly idTokenHint?: string;
    readonly postLogoutRedirectUri: string;
  }): Promise<string | undefined>;
}

/** What the provider's round trip must come back with: random, checked at the callback. */
export interface OidcTransaction {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** The transaction's cookie, sealed so that the browser can neither read nor change it. */
export interface TransactionSeal {
  seal(value: object): string;
  /** The value, or undefined when tampered with or older than ten minutes. */
  open(sealed: string): Record<string, unknown> | undefined;
}

/** What the transaction cookie carries besides the provider's transaction. */
interface SignInTransaction extends OidcTransaction {
  /** The organization whose connection it went through; null: the deployment's. */
  readonly organizationId: string | null;
  readonly returnTo: string;
  readonly invitation?: string;
}

const TRANSACTION_COOKIE = 'oidc_tx';
const TRANSACTION_SECONDS = 600;
const CALLBACK_PATH = `${API_BASE_PATH}/auth/callback`;

export class SsoSignIns {
  constructor(
    private readonly signIns: SignIns,
    private readonly relyingParty: RelyingParty | undefined,
    private readonly seal: TransactionSeal,
    private readonly cookies: SessionCookies,
  ) {}

  /** `GET /auth/login`: where the browser goes now (the provider, or the sign-in page). */
  async begin(
    request: FastifyRequest,
    reply: FastifyReply,
    query: { org?: string; email?: string; invitation?: string; return_to?: string },
  ): Promise<string> {
    const returnTo = consolePath(query.return_to);
    try {
      if (!this.relyingParty) throw new SignInRefused('no_connection', 'SSO is not set up');
      const chosen = await this.signIns.connectionFor({
        organizationId: query.org,
        email: query.email,
        invitationToken: query.invitation,
      });
      const { authorizationUrl, transaction } = await this.relyingParty.begin({
        connection: relyingPartyConnection(chosen),
        redirectUri: this.redirectUri(request),
      });
      const kept: SignInTransaction = {
        ...transaction,
        organizationId: chosen.organizationId,
        returnTo,
        ...(query.invitation !== undefined ? { invitation: query.invitation } : {}),
      };
      reply.header('set-cookie', this.transactionCookie(this.seal.seal(kept), TRANSACTION_SECONDS));
      return authorizationUrl;
    } catch (error) {
      return this.failurePage(request, error, returnTo);
    }
  }

  /** `GET /auth/callback`: the session started and where the browser goes. */
  async complete(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ location: string; started?: StartedSession }> {
    const kept = this.readTransaction(request.headers.cookie);
    // The transaction is for one round trip: gone whatever happens next.
    reply.header('set-cookie', this.transactionCookie('', 0));
    const returnTo = kept?.returnTo ?? '/';
    try {
      if (!this.relyingParty) throw new SignInRefused('no_connection', 'SSO is not set up');
      if (!kept)
        throw new SignInRefused(
          'stale_request',
          'The sign-in took too long or was not started here',
        );
      const chosen = await this.signIns.connectionOf(kept.organizationId);
      const callbackUrl = new URL(request.url, this.origin(request));
      const identity = await this.relyingParty.complete({
        connection: relyingPartyConnection(chosen),
        redirectUri: this.redirectUri(request),
        callbackUrl,
        transaction: kept,
      });
      const started = await this.signIns.withIdentity(identity, chosen, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        ...(kept.invitation !== undefined ? { invitationToken: kept.invitation } : {}),
        ...(identity.idToken !== undefined ? { idToken: identity.idToken } : {}),
      });
      return { location: returnTo, started };
    } catch (error) {
      return { location: this.failurePage(request, error, returnTo) };
    }
  }

  /** The identity provider's sign-out page for a session signed in through it, if it has one. */
  async logoutUrlFor(principal: Principal, request: FastifyRequest): Promise<string | undefined> {
    const session = principal.session;
    if (session?.method !== 'sso' || !this.relyingParty || !principal.organization)
      return undefined;
    try {
      const chosen = await this.signIns.connectionFor({
        organizationId: principal.organization.id,
      });
      return await this.relyingParty.logoutUrl({
        connection: relyingPartyConnection(chosen),
        ...(session.id_token !== null ? { idTokenHint: session.id_token } : {}),
        postLogoutRedirectUri: `${this.origin(request)}/sign-in`,
      });
    } catch {
      // The provider is out of reach: signing out here still happened.
      return undefined;
    }
  }

  private failurePage(request: FastifyRequest, error: unknown, returnTo: string): string {
    let code: SignInError;
    if (error instanceof SignInRefused) code = error.code;
    else if (error instanceof RelyingPartyError) {
      code = error.kind === 'stale_request' ? 'stale_request' : 'idp_error';
    } else throw error;
    // The person reads the code in words; the operator reads why here (never a secret).
    request.log.warn({ signIn: code, reason: error.message }, 'SSO sign-in failed');
    const params = new URLSearchParams({ error: code });
    if (returnTo !== '/') params.set('return_to', returnTo);
    return `/sign-in?${params.toString()}`;
  }

  private readTransaction(header: string | undefined): SignInTransaction | undefined {
    const sealed = cookieValue(header, TRANSACTION_COOKIE);
    const value = sealed === undefined ? undefined : this.seal.open(sealed);
    if (!value || typeof value.state !== 'string') return undefined;
    return value as unknown as SignInTransaction;
  }

  private transactionCookie(value: string, maxAge: number): string {
    const secure = this.cookies.name.startsWith('__Host-') ? '; Secure' : '';
    return `${TRANSACTION_COOKIE}=${value}; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
  }

  private redirectUri(request: FastifyRequest): string {
    return `${this.origin(request)}${CALLBACK_PATH}`;
  }

  private origin(request: FastifyRequest): string {
    return this.cookies.serviceOrigin(request);
  }
}

function relyingPartyConnection(chosen: ChosenConnection): RelyingPartyConnection {
  return {
    issuer: chosen.connection.issuer,
    client_id: chosen.connection.client_id,
    client_secret: chosen.clientSecret,
    groups_claim: chosen.connection.groups_claim,
  };
}

/** Only a path of the console: never another site, never a protocol-relative URL. */
function consolePath(returnTo: string | undefined): string {
  if (returnTo === undefined || !returnTo.startsWith('/') || returnTo.startsWith('//')) return '/';
  if (returnTo.startsWith('/api/') || /[\\\r\n]/.test(returnTo)) return '/';
  return returnTo;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
