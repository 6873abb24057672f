/**
 * Signing in with SSO through the service, against a real OpenID provider on 127.0.0.1:
 * people matched on (issuer, sub), emails trusted only when verified, groups giving roles,
 * just-in-time join, invitations, and every failure landing on the sign-in page in words.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { expectProblem, ok, send } from '../testing/api';
import { startTestProvider, signInAtProvider, type TestProvider } from '../testing/oidc-provider';
import { cookieOf, sendInSession } from '../testing/sessions';
import { startTestService, type TestService } from '../testing/test-service';

const PUBLIC_URL = 'http://localhost:8080';
const CALLBACK = `${PUBLIC_URL}/api/v1/auth/callback`;
let provider: TestProvider;
let service: TestService;

beforeAll(async () => {
  provider = await startTestProvider({
    clients: [
      {
        client_id: 'deployment',
        client_secret: 'deployment-secret',
        redirect_uris: [CALLBACK],
        post_logout_redirect_uris: [`${PUBLIC_URL}/sign-in`],
      },
      { client_id: 'acme', client_secret: 'acme-secret', redirect_uris: [CALLBACK] },
    ],
    identities: [
      { login: 'owner', email: 'owner@example.com', email_verified: true, name: 'Olga' },
      { login: 'ana', email: 'ana@acme.com', email_verified: true, groups: ['eng'] },
      { login: 'bo', email: 'bo@acme.com', email_verified: false, groups: ['eng'] },
      { login: 'cy', email: 'cy@acme.com', email_verified: true, groups: ['sales'] },
      { login: 'dee', email: 'dee@elsewhere.com', email_verified: true },
    ],
  });
});
afterAll(async () => {
  await provider.close();
});

beforeEach(async () => {
  service = await startTestService({
    people: {
      publicUrl: PUBLIC_URL,
      deploymentSso: {
        connection: {
          issuer: provider.issuer,
          client_id: 'deployment',
          email_domains: [],
          groups_claim: 'groups',
          group_roles: {},
          default_role: 'viewer',
          jit: false,
        },
        clientSecret: 'deployment-secret',
        jitOrganizationId: undefined,
      },
    },
  });
});
afterEach(async () => {
  await service.close();
});

/** The whole browser round trip: the service's redirect, the provider's pages, the callback. */
async function ssoSignIn(
  login: string,
  query: Record<string, string>,
  change?: (callback: URL) => void,
): Promise<{ response: LightMyRequestResponse; location: string }> {
  const start = await send(service, undefined, 'signIn', { query });
  expect(start.statusCode, start.body).toBe(302);
  const location = String(start.headers.location);
  expect(location.startsWith(provider.issuer), location).toBe(true);
  const transaction = cookieOf(start.headers['set-cookie']);
  expect(String(start.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax; Max-Age=600/);
  const callback = new URL(await signInAtProvider(location, login));
  change?.(callback);
  const response = await service.call(undefined, {
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: transaction },
  });
  expect(response.statusCode, response.body).toBe(302);
  return { response, location: String(response.headers.location) };
}

function sessionCookie(response: LightMyRequestResponse): string {
  const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const session = cookies.find((cookie) => cookie.startsWith('sid='));
  expect(session, JSON.stringify(cookies)).toBeDefined();
  return (session as string).split(';')[0] as string;
}

async function acmeConnection(extra: Record<string, unknown> = {}) {
  await ok(service, service.adminKey, 'setOrganizationSettings', {
    payload: {
      session_idle_minutes: 30,
      session_max_hours: 12,
      password_sign_in: true,
      sso: {
        issuer: provider.issuer,
        client_id: 'acme',
        client_secret: 'acme-secret',
        email_domains: ['acme.com'],
        groups_claim: 'groups',
        group_roles: { eng: 'editor' },
        default_role: 'refuse',
        jit: true,
        ...extra,
      },
    },
  });
}

describe('SSO through the deployment connection', () => {
  it('links an existing member by verified email, then knows them by (issuer, sub)', async () => {
    const { response, location } = await ssoSignIn('owner', {
      email: 'owner@example.com',
      return_to: '/configs',
    });
    expect(location).toBe('/configs');
    const cookie = sessionCookie(response);
    const status = await ok(service, undefined, 'getAuthStatus', { headers: { cookie } });
    expect(status).toMatchObject({
      email: 'owner@example.com',
      role: 'admin',
      session_method: 'sso',
      idp_user_id: 'owner',
      name: 'Olga',
    });
    const members = await ok(service, service.adminKey, 'listMembers');
    expect(members[0]).toMatchObject({ email: 'owner@example.com', sign_in: 'sso' });
    // Sign-out offers the provider's own.
    const out = await sendInSession(service, cookie, 'signOut');
    expect(out.json()).toMatchObject({
      idp_logout_url: expect.stringContaining(`${provider.issuer}/session/end`),
    });
  });

  it('lands on the sign-in page when nobody knows the person, never a JSON dump', async () => {
    const { response, location } = await ssoSignIn('dee', { email: 'dee@elsewhere.com' });
    expect(location).toBe('/sign-in?error=not_a_member');
    expect(response.body).toBe('');
  });

  it('refuses a changed state and a missing transaction cookie as stale', async () => {
    const changed = await ssoSignIn('owner', { email: 'owner@example.com' }, (callback) =>
      callback.searchParams.set('state', 'changed'),
    );
    expect(changed.location).toBe('/sign-in?error=stale_request');
    const bare = await service.call(undefined, {
      method: 'GET',
      url: '/api/v1/auth/callback?code=x&state=y',
    });
    expect(bare.headers.location).toBe('/sign-in?error=stale_request');
  });

  it('never returns anywhere but a console path', async () => {
    for (const returnTo of ['//evil.example/x', '/api/v1/auth/status']) {
      const start = await send(service, undefined, 'signIn', {
        query: { email: 'owner@example.com', return_to: returnTo },
      });
      const callback = new URL(await signInAtProvider(String(start.headers.location), 'owner'));
      const done = await service.call(undefined, {
        method: 'GET',
        url: `${callback.pathname}${callback.search}`,
        headers: { cookie: cookieOf(start.headers['set-cookie']) },
      });
      expect(done.headers.location).toBe('/');
    }
  });
});

describe("SSO through an organization's own connection", () => {
  it('lets a verified email of its domain join just in time, with the role of its groups', async () => {
    await acmeConnection();
    const { response, location } = await ssoSignIn('ana', { email: 'ana@acme.com' });
    expect(location).toBe('/');
    const status = await ok(service, undefined, 'getAuthStatus', {
      headers: { cookie: sessionCookie(response) },
    });
    expect(status).toMatchObject({ email: 'ana@acme.com', role: 'editor', session_method: 'sso' });
    const audit = await ok(service, service.adminKey, 'getAudit', {
      query: { action: 'member.join' },
    });
    expect(audit[0]?.detail).toMatchObject({ email: 'ana@acme.com', role: 'editor' });
  });

  it('refuses an unverified email and a person whose groups give no role', async () => {
    await acmeConnection();
    expect((await ssoSignIn('bo', { email: 'bo@acme.com' })).location).toBe(
      '/sign-in?error=email_not_verified',
    );
    expect((await ssoSignIn('cy', { email: 'cy@acme.com' })).location).toBe(
      '/sign-in?error=not_a_member',
    );
  });

  it('applies the role of the groups at every sign-in, audited', async () => {
    await acmeConnection();
    await ssoSignIn('ana', { email: 'ana@acme.com' });
    provider.setIdentity({
      login: 'ana',
      email: 'ana@acme.com',
      email_verified: true,
      groups: ['admins'],
    });
    await acmeConnection({ group_roles: { eng: 'editor', admins: 'admin' } });
    const { response } = await ssoSignIn('ana', { email: 'ana@acme.com' });
    const status = await ok(service, undefined, 'getAuthStatus', {
      headers: { cookie: sessionCookie(response) },
    });
    expect(status.role).toBe('admin');
    const audit = await ok(service, service.adminKey, 'getAudit', {
      query: { action: 'member.role_change' },
    });
    expect(audit[0]?.detail).toMatchObject({ from: 'editor', to: 'admin', by: 'groups' });
    provider.setIdentity({
      login: 'ana',
      email: 'ana@acme.com',
      email_verified: true,
      groups: ['eng'],
    });
  });

  it('ends SSO sessions when the connection changes', async () => {
    await acmeConnection();
    const cookie = sessionCookie((await ssoSignIn('ana', { email: 'ana@acme.com' })).response);
    await ok(service, undefined, 'listConfigs', { headers: { cookie } });
    await acmeConnection({ jit: false });
    expectProblem(await sendInSession(service, cookie, 'listConfigs'), 401, 'session_revoked');
  });

  it('accepts an invitation for the verified email it names', async () => {
    const invitation = await ok(service, service.adminKey, 'createInvitation', {
      payload: { email: 'cy@acme.com', role: 'viewer' },
    });
    const token = invitation.link.split('/').pop() as string;
    const { response, location } = await ssoSignIn('cy', { invitation: token });
    expect(location).toBe('/');
    const status = await ok(service, undefined, 'getAuthStatus', {
      headers: { cookie: sessionCookie(response) },
    });
    expect(status).toMatchObject({ email: 'cy@acme.com', role: 'viewer' });
    expect((await ok(service, undefined, 'previewInvitation', { params: { token } })).status).toBe(
      'accepted',
    );
    // Someone else cannot use another person's link.
    const other = await ok(service, service.adminKey, 'createInvitation', {
      payload: { email: 'zed@acme.com', role: 'viewer' },
    });
    const otherToken = other.link.split('/').pop() as string;
    expect((await ssoSignIn('ana', { invitation: otherToken })).location).toBe(
      '/sign-in?error=not_a_member',
    );
  });
});
