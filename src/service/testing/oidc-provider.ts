/**
 * A real OpenID provider for the tests (`oidc-provider`, OpenID Certified), on 127.0.0.1 so
 * that it is another site than the console on localhost, as in production. Its development
 * login page takes any password: the login field names the account. Test-only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestIdentity {
  /** What the login field takes, and the `sub`. */
  readonly login: string;
  readonly email: string;
  readonly email_verified: boolean;
  readonly name?: string;
  readonly groups?: readonly string[];
}

export interface TestClient {
  readonly client_id: string;
  readonly client_secret: string;
  readonly redirect_uris: readonly string[];
  readonly post_logout_redirect_uris?: readonly string[];
}

export interface TestProvider {
  readonly issuer: string;
  /** Adds or replaces an account (its groups, its email's verification). */
  setIdentity(identity: TestIdentity): void;
  close(): Promise<void>;
}

export async function startTestProvider(input: {
  readonly clients: readonly TestClient[];
  readonly identities: readonly TestIdentity[];
}): Promise<TestProvider> {
  const identities = new Map(input.identities.map((identity) => [identity.login, identity]));
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: input.clients.map((each) => ({
      client_id: each.client_id,
      client_secret: each.client_secret,
      redirect_uris: [...each.redirect_uris],
      post_logout_redirect_uris: [...(each.post_logout_redirect_uris ?? [])],
      // openid-client sends the secret in the body by default.
      token_endpoint_auth_method: 'client_secret_post',
    })),
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'groups'],
    },
    // The claims go in the ID token itself, as most providers can be set to do.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: { enabled: true },
    },
    cookies: { keys: ['test-provider-cookie-key'] },
    findAccount: (_ctx, id) => {
      const identity = identities.get(id);
      if (!identity) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: identity.email,
          email_verified: identity.email_verified,
          ...(identity.name !== undefined ? { name: identity.name } : {}),
          groups: [...(identity.groups ?? [])],
        }),
      };
    },
  });
  // Development keys and pages are what a test wants; their warnings are not.
  provider.on('server_error', () => undefined);
  server.on('request', provider.callback());
  return {
    issuer,
    setIdentity: (identity) => identities.set(identity.login, identity),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What a browser does between the redirect to the provider and the callback: logs in as
 * `login` on the development page and consents. Returns the callback URL the provider sends
 * the browser to (with `?code&state`, or `?error`). `abort`: the person cancels instead.
 */
export async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  options: { readonly abort?: boolean } = {},
): Promise<string> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 12; step += 1) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: form.toString() } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const at = (pair ?? '').indexOf('=');
      if (at > 0) cookies.set((pair as string).slice(0, at), (pair as string).slice(at + 1));
    }
    form = undefined;
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (!next.href.startsWith(new URL(authorizationUrl).origin)) return next.href;
      url = next.href;
      continue;
    }
    const page = await response.text();
    if (options.abort) {
      url = `${url.replace(/\/$/, '')}/abort`;
    } else if (page.includes('name="login"')) {
      form = new URLSearchParams({ prompt: 'login', login, password: 'any' });
    } else if (page.includes('value="consent"')) {
      form = new URLSearchParams({ prompt: 'consent' });
    } else {
      throw new Error(
        `the provider's page at ${url} is neither login nor consent: ${page.slice(0, 200)}`,
      );
    }
  }
  throw new Error('the provider never sent the browser back');
}
