import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../../contract/auth-status';
import { CONNECT_ORIGINS_META } from '../../../contract/connect-origins';
import { problemOf } from '../../../contract/problem';
import { DEFAULT_ACCOUNT_POLICY } from '../../../contract/reviews';
import { routes } from '../../app/routes';
import { connectionStore } from '../../lib/connection';
import {
  handle,
  notOffered,
  recordRequests,
  setupContractServer,
  unauthorized,
} from '../../testing/msw-contract';
import {
  ADMIN_STATUS,
  connectForTest,
  renderRoutes,
  TEST_BASE_URL,
  TEST_KEY,
} from '../../testing/test-utils';
import { ssoSignInUrl } from './api/sign-in';

// Every signed-in settings page reads the review policy, at whichever origin it talks to.
const server = setupContractServer(
  http.get('*/api/v1/account/policy', () => HttpResponse.json(DEFAULT_ACCOUNT_POLICY)),
);

const sessionStatus: AuthStatus = {
  idp_organization_id: 'org_1',
  organization_id: 'org_1',
  organization_name: 'Acme',
  email: 'ana@acme.com',
  user_id: 'usr_ana',
  role: 'admin',
  session_id: 'ses_1',
  session_method: 'password',
  sign_in_name: 'password',
  expires_at: '2026-11-26T12:30:00.000Z',
  session_max_expires_at: '2026-11-26T22:00:00.000Z',
  permissions: ['config:read', 'config:write', 'config:publish', 'api_keys:manage'],
};

/** What a signed-in settings page asks for. */
function settingsServer(status: AuthStatus = sessionStatus) {
  server.use(
    handle('getAuthStatus', () => ({ status: 200, body: status })),
    handle('listApiKeys', () => ({ status: 200, body: [] })),
  );
}

async function openSignIn(path = '/sign-in') {
  const rendered = renderRoutes(routes, { path });
  await screen.findByRole('heading', { level: 1, name: 'Sign in' });
  return rendered;
}

function storedAnywhere(): boolean {
  return sessionStorage.length > 0 || localStorage.length > 0;
}

async function typeEmail(email: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  return user;
}

function keySection() {
  return screen.getByRole('region', { name: 'Use an API key' });
}

async function connectWithKey(key: string) {
  const user = userEvent.setup();
  const section = keySection();
  await user.type(within(section).getByLabelText('API key'), key);
  await user.click(within(section).getByRole('button', { name: 'Connect' }));
  return user;
}

beforeEach(() => connectionStore.signOut());

describe('the sign-in page: email and password', () => {
  it('is where a signed-out person lands, and leads back where they were going', async () => {
    const { history } = renderRoutes(routes, { path: '/settings' });
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(history.location.pathname).toBe('/sign-in');
    expect(history.location.search).toBe('?return_to=%2Fsettings');

    server.use(
      handle('getSignInOptions', ({ query }) => {
        expect(query.email).toBe('ana@acme.com');
        return { status: 200, body: { password: true, sso: false } };
      }),
      handle('signInWithPassword', ({ body }) => {
        expect(body).toEqual({ email: 'ana@acme.com', password: 'correct horse battery staple' });
        return { status: 200, body: sessionStatus };
      }),
    );
    settingsServer();
    const user = await typeEmail(' Ana@Acme.com ');
    expect(screen.queryByRole('button', { name: 'Continue with SSO' })).toBeNull();
    await user.type(await screen.findByLabelText('Password'), 'correct horse battery staple');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(history.location.pathname).toBe('/settings');
    expect(connectionStore.getSnapshot()).toMatchObject({
      connection: { baseUrl: TEST_BASE_URL, apiKey: null },
      confirmed: true,
      person: 'usr_ana',
    });
    expect(storedAnywhere()).toBe(false);
  });

  it('asks for the email first, and says when it is not one', async () => {
    const seen = recordRequests(server);
    await openSignIn();
    await typeEmail('not an email');
    expect(await screen.findByText('Enter your work email address.')).toBeTruthy();
    expect(seen).toHaveLength(0);
  });

  it('offers SSO, the password, or both, as the options say', async () => {
    server.use(
      handle('getSignInOptions', ({ query }) => ({
        status: 200,
        body: { password: query.email !== 'sso@acme.com', sso: query.email !== 'pw@acme.com' },
      })),
    );
    await openSignIn();
    const user = await typeEmail('sso@acme.com');
    expect(await screen.findByRole('button', { name: 'Continue with SSO' })).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Use another email' }));
    await typeEmail('both@acme.com');
    expect(await screen.findByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with SSO' })).toBeTruthy();
  });

  it('leads SSO to the service with the email and where to come back to', () => {
    expect(ssoSignInUrl({ email: 'ana@acme.com', returnTo: '/configs/live' })).toBe(
      '/api/v1/auth/login?email=ana%40acme.com&return_to=%2Fconfigs%2Flive',
    );
    expect(ssoSignInUrl({ invitation: 'tok_1' })).toBe('/api/v1/auth/login?invitation=tok_1');
  });

  it('says a wrong password in words, and signs nobody in', async () => {
    server.use(
      handle('getSignInOptions', () => ({ status: 200, body: { password: true, sso: false } })),
      handle('signInWithPassword', () => ({
        problem: problemOf('sign_in_failed', 'The email or password is not right'),
      })),
    );
    await openSignIn();
    const user = await typeEmail('ana@acme.com');
    await user.type(await screen.findByLabelText('Password'), 'wrong password, sadly');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The email or password is not right.',
    );
    expect(connectionStore.getSnapshot().connection).toBeNull();
  });

  it('says how long to wait after too many tries (429 with Retry-After)', async () => {
    server.use(
      handle('getSignInOptions', () => ({ status: 200, body: { password: true, sso: false } })),
      handle('signInWithPassword', () => ({
        problem: problemOf('rate_limited', 'Too many sign-in attempts'),
        headers: { 'Retry-After': '30' },
      })),
    );
    await openSignIn();
    const user = await typeEmail('ana@acme.com');
    await user.type(await screen.findByLabelText('Password'), 'one more try, please');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many tries; try again in 30 seconds.',
    );
  });

  it.each([
    ['not_a_member', 'Your organization does not know you yet.'],
    ['stale_request', 'The sign-in took too long or was interrupted.'],
    ['email_not_verified', 'has not verified your email address'],
    ['idp_error', 'Your identity provider did not sign you in'],
    ['something_new', 'Signing in did not work. Please try again.'],
  ])('says ?error=%s in words, with a way back', async (code, words) => {
    const { history } = await openSignIn(`/sign-in?error=${code}&return_to=%2Fconfigs`);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(words);
    expect(alert.textContent).not.toContain(code);
    await userEvent
      .setup()
      .click(within(alert).getByRole('link', { name: 'Try signing in again' }));
    expect(history.location.search).toBe('?return_to=%2Fconfigs');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the sign-in page: "Use an API key"', () => {
  it('exchanges the key for a session on this origin and keeps no key anywhere', async () => {
    const seen: Request[] = [];
    server.use(
      handle('startKeySession', ({ request }) => {
        seen.push(request);
        return { status: 200, body: { ...ADMIN_STATUS, session_id: 'ses_2' } };
      }),
    );
    settingsServer(ADMIN_STATUS);
    await openSignIn('/sign-in?return_to=%2Fsettings');
    expect((within(keySection()).getByLabelText('API base URL') as HTMLInputElement).value).toBe(
      TEST_BASE_URL,
    );
    await connectWithKey(TEST_KEY);
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(seen[0]?.headers.get('Authorization')).toBe(`Bearer ${TEST_KEY}`);
    expect(connectionStore.getSnapshot().connection).toEqual({
      baseUrl: TEST_BASE_URL,
      apiKey: null,
    });
    expect(storedAnywhere()).toBe(false);
    expect(screen.getByRole('status').textContent).toBe('Signed in as ada@example.com');
  });

  it('keeps the key in memory only, against a server that offers no sessions', async () => {
    server.use(notOffered('startKeySession'));
    settingsServer(ADMIN_STATUS);
    const seen = recordRequests(server);
    await openSignIn('/sign-in?return_to=%2Fsettings');
    await connectWithKey(TEST_KEY);
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    expect(connectionStore.getSnapshot().connection?.apiKey).toBe(TEST_KEY);
    expect(storedAnywhere()).toBe(false);
    const status = seen.find((request) => request.url.endsWith('/auth/status'));
    expect(status?.headers.get('Authorization')).toBe(`Bearer ${TEST_KEY}`);
    expect(
      screen.getByText(/The key is held in memory and forgotten when this tab closes/),
    ).toBeTruthy();
  });

  it.each([
    ['api_key_invalid', 'That API key is not valid.'],
    ['api_key_revoked', 'That API key was revoked.'],
    ['api_key_expired', 'That API key has expired.'],
  ] as const)('says %s in words and keeps nothing', async (code, words) => {
    server.use(handle('startKeySession', () => unauthorized(code)));
    await openSignIn();
    await connectWithKey('sk_wrong_key_0000000000000000000000');
    expect((await within(keySection()).findByRole('alert')).textContent).toBe(words);
    expect(storedAnywhere()).toBe(false);
    expect(connectionStore.getSnapshot().connection).toBeNull();
  });

  it('checks the form before calling the server', async () => {
    const seen = recordRequests(server);
    await openSignIn();
    const user = userEvent.setup();
    const field = within(keySection()).getByLabelText('API base URL');
    await user.clear(field);
    await user.type(field, 'not a url');
    await user.click(within(keySection()).getByRole('button', { name: 'Connect' }));
    expect(
      await screen.findByText('Enter a URL that starts with http:// or https://.'),
    ).toBeTruthy();
    expect(screen.getByText('Enter an API key.')).toBeTruthy();
    expect(seen).toHaveLength(0);
  });

  it('refuses an origin the console may not use, without trying', async () => {
    const seen = recordRequests(server);
    await openSignIn();
    const user = userEvent.setup();
    const field = within(keySection()).getByLabelText('API base URL');
    await user.clear(field);
    await user.type(field, 'http://127.0.0.1:9/api/v1');
    await connectWithKey(TEST_KEY);
    expect(
      await screen.findByText(
        'http://127.0.0.1:9 cannot be used from this console: only this origin can.',
      ),
    ).toBeTruthy();
    expect(seen).toHaveLength(0);
  });

  describe('with another origin named by the server', () => {
    const OTHER = 'http://127.0.0.1:8081';
    let meta: HTMLMetaElement;
    beforeEach(() => {
      meta = document.createElement('meta');
      meta.name = CONNECT_ORIGINS_META;
      meta.content = OTHER;
      document.head.append(meta);
    });
    afterEach(() => meta.remove());

    it('keeps the key in memory for it (its cookie could not work here), and asks its status', async () => {
      server.use(
        http.get(`${OTHER}/api/v1/auth/status`, () => HttpResponse.json(ADMIN_STATUS)),
        http.get(`${OTHER}/api/v1/api-keys`, () => HttpResponse.json([])),
        http.get(`${OTHER}/api/v1/accounts`, () => HttpResponse.json([])),
      );
      await openSignIn('/sign-in?return_to=%2Fsettings');
      const user = userEvent.setup();
      const field = within(keySection()).getByLabelText('API base URL');
      await user.clear(field);
      await user.type(field, `${OTHER}/api/v1`);
      await connectWithKey(TEST_KEY);
      expect((await screen.findByRole('status')).textContent).toBe('Signed in as ada@example.com');
      expect(connectionStore.getSnapshot().connection).toEqual({
        baseUrl: `${OTHER}/api/v1`,
        apiKey: TEST_KEY,
      });
      expect(storedAnywhere()).toBe(false);
    });
  });
});

describe('signing out', () => {
  it('ends the session on the server, forgets every cached answer, and offers the IdP too', async () => {
    connectForTest({ person: 'usr_ana' });
    settingsServer({ ...sessionStatus, session_method: 'sso', sign_in_name: 'Acme SSO' });
    let signedOut = 0;
    server.use(
      handle('signOut', () => {
        signedOut++;
        return { status: 200, body: { idp_logout_url: 'https://idp.example/logout' } };
      }),
    );
    const { queryClient } = renderRoutes(routes, { path: '/settings' });
    await screen.findByText('Signed in as ana@acme.com');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(signedOut).toBe(1);
    const link = screen.getByRole('link', { name: 'Also sign out of Acme SSO' });
    expect(link.getAttribute('href')).toBe('https://idp.example/logout');
    expect(screen.getByText('You are signed out.')).toBeTruthy();
    expect(
      queryClient
        .getQueryCache()
        .getAll()
        .filter((query) => query.state.data !== undefined),
    ).toEqual([]);
    expect(screen.queryByRole('complementary', { name: 'Who you are' })).toBeNull();
  });

  it('a key that fails on a page (no session) leads to the sign-in page with the reason', async () => {
    connectForTest({ key: true });
    server.use(
      handle('getAuthStatus', () => unauthorized('api_key_revoked')),
      handle('listConfigs', () => unauthorized('api_key_revoked')),
    );
    const { history } = renderRoutes(routes, { path: '/configs' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    await waitFor(() => expect(history.location.pathname).toBe('/sign-in'));
    expect(screen.getByText('Your API key was revoked. Sign in again.')).toBeTruthy();
  });
});
