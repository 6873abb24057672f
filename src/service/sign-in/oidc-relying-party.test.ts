/**
 * The relying party against a real provider on loopback: a whole code + PKCE round trip,
 * and each way it can fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProvider, signInAtProvider, type TestProvider } from '../testing/oidc-provider';
import { OidcRelyingParty, RelyingPartyError } from './oidc-relying-party';

const REDIRECT = 'http://localhost:9/api/v1/auth/callback';
let provider: TestProvider;
const connection = () => ({
  issuer: provider.issuer,
  client_id: 'console',
  client_secret: 'the-client-secret',
  groups_claim: 'groups',
});

beforeAll(async () => {
  provider = await startTestProvider({
    clients: [
      { client_id: 'console', client_secret: 'the-client-secret', redirect_uris: [REDIRECT] },
    ],
    identities: [
      { login: 'ana', email: 'ana@acme.com', email_verified: true, name: 'Ana', groups: ['eng'] },
      { login: 'bo', email: 'bo@acme.com', email_verified: false },
    ],
  });
});
afterAll(async () => {
  await provider.close();
});

async function roundTrip(party: OidcRelyingParty, login: string) {
  const { authorizationUrl, transaction } = await party.begin({
    connection: connection(),
    redirectUri: REDIRECT,
  });
  const callback = new URL(await signInAtProvider(authorizationUrl, login));
  return { authorizationUrl, transaction, callback };
}

const failureOf = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    if (error instanceof RelyingPartyError) return error;
    throw error;
  }
  throw new Error('it did not fail');
};

describe('the relying party', () => {
  const party = new OidcRelyingParty({ timeoutSeconds: 5 });

  it('signs in with code, PKCE S256, state and nonce, and reads the claims', async () => {
    const { authorizationUrl, transaction, callback } = await roundTrip(party, 'ana');
    const asked = new URL(authorizationUrl).searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('state')).toBe(transaction.state);
    expect(asked.get('nonce')).toBe(transaction.nonce);
    const identity = await party.complete({
      connection: connection(),
      redirectUri: REDIRECT,
      callbackUrl: callback,
      transaction,
    });
    expect(identity).toMatchObject({
      issuer: provider.issuer,
      subject: 'ana',
      email: 'ana@acme.com',
      email_verified: true,
      name: 'Ana',
      groups: ['eng'],
    });
    expect(identity.idToken).toMatch(/^ey/);
    // A code is good once.
    const again = await failureOf(
      party.complete({
        connection: connection(),
        redirectUri: REDIRECT,
        callbackUrl: callback,
        transaction,
      }),
    );
    expect(again.kind).toBe('failed');
  });

  it('says when the email is not verified', async () => {
    const { transaction, callback } = await roundTrip(party, 'bo');
    const identity = await party.complete({
      connection: connection(),
      redirectUri: REDIRECT,
      callbackUrl: callback,
      transaction,
    });
    expect(identity.email_verified).toBe(false);
  });

  it("refuses a changed state, another sign-in's state, and the provider's no", async () => {
    const first = await roundTrip(party, 'ana');
    const tampered = new URL(first.callback);
    tampered.searchParams.set('state', `${first.transaction.state}x`);
    const changed = await failureOf(
      party.complete({
        connection: connection(),
        redirectUri: REDIRECT,
        callbackUrl: tampered,
        transaction: first.transaction,
      }),
    );
    expect(changed.kind).toBe('stale_request');
    const second = await roundTrip(party, 'ana');
    const crossed = await failureOf(
      party.complete({
        connection: connection(),
        redirectUri: REDIRECT,
        callbackUrl: second.callback,
        transaction: first.transaction,
      }),
    );
    expect(crossed.kind).toBe('stale_request');

    const { authorizationUrl, transaction } = await party.begin({
      connection: connection(),
      redirectUri: REDIRECT,
    });
    const cancelled = new URL(await signInAtProvider(authorizationUrl, 'ana', { abort: true }));
    expect(cancelled.searchParams.get('error')).toBe('access_denied');
    const no = await failureOf(
      party.complete({
        connection: connection(),
        redirectUri: REDIRECT,
        callbackUrl: cancelled,
        transaction,
      }),
    );
    expect(no.kind).toBe('idp_error');
  });

  it('fails a wrong client secret without saying the secret', async () => {
    const wrong = { ...connection(), client_secret: 'not-the-secret-at-all' };
    const { authorizationUrl, transaction } = await party.begin({
      connection: wrong,
      redirectUri: REDIRECT,
    });
    const callback = new URL(await signInAtProvider(authorizationUrl, 'ana'));
    const failure = await failureOf(
      party.complete({
        connection: wrong,
        redirectUri: REDIRECT,
        callbackUrl: callback,
        transaction,
      }),
    );
    expect(failure.kind).toBe('failed');
    expect(failure.message).not.toContain('not-the-secret-at-all');
  });

  it('offers the provider sign-out page', async () => {
    const url = await party.logoutUrl({
      connection: connection(),
      idTokenHint: 'token',
      postLogoutRedirectUri: 'http://localhost:9/sign-in',
    });
    expect(url).toContain(`${provider.issuer}/session/end`);
  });

  it('refuses a plain-http provider that is not on this machine, before any connection', async () => {
    const failure = await failureOf(
      party.begin({
        connection: { ...connection(), issuer: 'http://idp.example.com' },
        redirectUri: REDIRECT,
      }),
    );
    expect(failure.kind).toBe('failed');
    expect(failure.message).toMatch(/https/i);
  });

  it('fails within its timeout when the provider is not there', async () => {
    const gone = new OidcRelyingParty({ timeoutSeconds: 2 });
    const failure = await failureOf(
      gone.begin({
        connection: { ...connection(), issuer: 'http://127.0.0.1:9' },
        redirectUri: REDIRECT,
      }),
    );
    expect(failure.kind).toBe('failed');
  });
});
