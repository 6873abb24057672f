/**
 * The service as an OpenID Connect relying party (`openid-client`, a confidential client):
 * the authorization code flow with PKCE (S256), `state` and `nonce`; the library checks the
 * ID token. One instance per app, holding the providers' discovered metadata; a provider
 * that does not answer fails the sign-in within `timeoutSeconds`, never hangs it.
 */
import * as client from 'openid-client';
import type { VerifiedIdentity } from '../domain/sso-identity';
import type { OidcTransaction, RelyingParty, RelyingPartyConnection } from './sso-sign-ins';

/** Why the provider's round trip failed: the provider said no, the state is not ours, or else. */
export class RelyingPartyError extends Error {
  constructor(
    readonly kind: 'idp_error' | 'stale_request' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

export interface RelyingPartyOptions {
  readonly timeoutSeconds?: number;
}

const SCOPE = 'openid email profile';

export class OidcRelyingParty implements RelyingParty {
  /** Discovered configurations by issuer and client; dropped when a sign-in fails with one. */
  private readonly configurations = new Map<string, Promise<client.Configuration>>();

  constructor(private readonly options: RelyingPartyOptions = {}) {}

  async begin(input: { connection: RelyingPartyConnection; redirectUri: string }) {
    const config = await this.configurationOf(input.connection);
    const transaction: OidcTransaction = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: input.redirectUri,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(transaction.codeVerifier),
      code_challenge_method: 'S256',
      state: transaction.state,
      nonce: transaction.nonce,
    });
    return { authorizationUrl: url.href, transaction };
  }

  async complete(input: {
    connection: RelyingPartyConnection;
    redirectUri: string;
    callbackUrl: URL;
    transaction: OidcTransaction;
  }): Promise<VerifiedIdentity & { idToken?: string }> {
    const { callbackUrl, transaction, connection } = input;
    const error = callbackUrl.searchParams.get('error');
    if (error !== null) {
      throw new RelyingPartyError('idp_error', `The identity provider said ${error.slice(0, 100)}`);
    }
    if (callbackUrl.searchParams.get('state') !== transaction.state) {
      throw new RelyingPartyError('stale_request', 'The state does not match this sign-in');
    }
    const config = await this.configurationOf(connection);
    // The redirect URI the code was issued for, whatever address the request came in by.
    const currentUrl = new URL(input.redirectUri);
    currentUrl.search = callbackUrl.search;
    try {
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new RelyingPartyError('failed', 'The provider sent no ID token');
      let claims: Record<string, unknown> = { ...idClaims };
      if (claims.email === undefined || claims[connection.groups_claim] === undefined) {
        const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...claims };
      }
      const groups = claims[connection.groups_claim];
      return {
        issuer: idClaims.iss,
        subject: idClaims.sub,
        email: typeof claims.email === 'string' ? claims.email : undefined,
        email_verified: claims.email_verified === true,
        name: typeof claims.name === 'string' ? claims.name : undefined,
        groups: Array.isArray(groups)
          ? groups.filter((g): g is string => typeof g === 'string')
          : [],
        ...(tokens.id_token !== undefined ? { idToken: tokens.id_token } : {}),
      };
    } catch (failure) {
      if (failure instanceof RelyingPartyError) throw failure;
      this.configurations.delete(keyOf(connection));
      // The library's message names what failed; the client secret is never in it.
      throw new RelyingPartyError('failed', describe(failure));
    }
  }

  async logoutUrl(input: {
    connection: RelyingPartyConnection;
    idTokenHint?: string;
    postLogoutRedirectUri: string;
  }): Promise<string | undefined> {
    const config = await this.configurationOf(input.connection);
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(config, {
      post_logout_redirect_uri: input.postLogoutRedirectUri,
      client_id: input.connection.client_id,
      ...(input.idTokenHint !== undefined ? { id_token_hint: input.idTokenHint } : {}),
    }).href;
  }

  private configurationOf(connection: RelyingPartyConnection): Promise<client.Configuration> {
    const key = keyOf(connection);
    let config = this.configurations.get(key);
    if (!config) {
      config = client
        .discovery(
          new URL(connection.issuer),
          connection.client_id,
          undefined,
          client.ClientSecretPost(connection.client_secret),
          {
            timeout: this.options.timeoutSeconds ?? 10,
            // Plain http only for a provider on this machine (development and tests).
            ...(isLoopbackHttp(connection.issuer)
              ? { execute: [client.allowInsecureRequests] }
              : {}),
          },
        )
        .catch((failure: unknown) => {
          this.configurations.delete(key);
          throw new RelyingPartyError(
            'failed',
            `The identity provider did not answer: ${describe(failure)}`,
          );
        });
      this.configurations.set(key, config);
    }
    return config;
  }
}

function isLoopbackHttp(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

function keyOf(connection: RelyingPartyConnection): string {
  return `${connection.issuer}\n${connection.client_id}\n${connection.client_secret}`;
}

function describe(failure: unknown): string {
  return failure instanceof Error ? failure.message.slice(0, 300) : 'unknown failure';
}
