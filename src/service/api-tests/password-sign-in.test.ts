import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, expectSuccess, manualClock, ok, send } from '../testing/api';
import { cookieOf, sendInSession } from '../testing/sessions';
import { startTestService, type TestService } from '../testing/test-service';

const FROM_CONSOLE = { 'x-requested-with': 'console', 'sec-fetch-site': 'same-origin' };
const PASSWORD = 'correct horse battery staple';
let time: ReturnType<typeof manualClock>;
let service: TestService;

beforeEach(async () => {
  time = manualClock();
  service = await startTestService({ clock: time.clock });
});
afterEach(async () => {
  await service.close();
});

async function invite(email: string, role: 'admin' | 'editor' | 'viewer' = 'editor') {
  const created = await ok(service, service.adminKey, 'createInvitation', {
    payload: { email, role },
  });
  return created.link.split('/').pop() as string;
}

function accept(token: string, payload: object) {
  return send(service, undefined, 'acceptInvitation', {
    params: { token },
    payload,
    headers: FROM_CONSOLE,
  });
}

function signIn(email: string, password: string, headers: Record<string, string> = {}) {
  return send(service, undefined, 'signInWithPassword', {
    payload: { email, password },
    headers: { ...FROM_CONSOLE, ...headers },
  });
}

describe('an invitation accepted with a password', () => {
  it('makes the person a member with the invited role and signs them in', async () => {
    const token = await invite('ana@acme.com');
    const response = await accept(token, { password: PASSWORD, name: 'Ana' });
    const status = expectSuccess('acceptInvitation', response);
    expect(status).toMatchObject({
      email: 'ana@acme.com',
      name: 'Ana',
      role: 'editor',
      session_method: 'password',
      sign_in_name: 'a password',
    });
    expect(status.auth_type).toBeUndefined();
    const cookie = cookieOf(response.headers['set-cookie']);
    await ok(service, undefined, 'getAuthStatus', { headers: { cookie } });
    const members = await ok(service, service.adminKey, 'listMembers');
    expect(members.find((member) => member.email === 'ana@acme.com')).toMatchObject({
      role: 'editor',
      sign_in: 'password',
      name: 'Ana',
    });
    // The link is used up.
    expectProblem(await accept(token, { password: PASSWORD }), 409, 'invitation_unusable');
    const audit = await ok(service, service.adminKey, 'getAudit', {
      query: { action: 'invitation.' },
    });
    expect(audit.map((entry) => entry.action)).toEqual(['invitation.accept', 'invitation.create']);
  });

  it('refuses a short or common password in words, and uses nothing up', async () => {
    const token = await invite('ana@acme.com');
    const short = expectProblem(await accept(token, { password: 'short one' }), 400);
    expect(short.errors?.[0]?.path).toBe('/password');
    expect(short.detail).toMatch(/15 characters/);
    const common = expectProblem(await accept(token, { password: 'passwordpassword' }), 400);
    expect(common.detail).toMatch(/common/i);
    expectSuccess('acceptInvitation', await accept(token, { password: PASSWORD }));
  });

  it('refuses an expired link', async () => {
    const token = await invite('ana@acme.com');
    time.advance(7 * 86_400_000);
    expectProblem(await accept(token, { password: PASSWORD }), 409, 'invitation_unusable');
  });
});

describe('signing in with a password', () => {
  beforeEach(async () => {
    expectSuccess(
      'acceptInvitation',
      await accept(await invite('ana@acme.com'), { password: PASSWORD }),
    );
  });

  it('starts a session in a new cookie each time', async () => {
    const first = await signIn('Ana@Acme.com', PASSWORD);
    expectSuccess('signInWithPassword', first);
    const second = await signIn('ana@acme.com', PASSWORD);
    expect(cookieOf(second.headers['set-cookie'])).not.toBe(cookieOf(first.headers['set-cookie']));
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const wrong = expectProblem(
      await signIn('ana@acme.com', `${PASSWORD}!`),
      401,
      'sign_in_failed',
    );
    const unknown = expectProblem(await signIn('nobody@acme.com', PASSWORD), 401, 'sign_in_failed');
    expect(unknown.detail).toBe(wrong.detail);
    const audit = await ok(service, service.adminKey, 'getAudit', {
      query: { action: 'sign_in.failed' },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]?.detail).toMatchObject({ email: 'ana@acme.com' });
  });

  it('slows an email down after 5 failures, doubling, and a success resets it', async () => {
    for (let i = 0; i < 5; i += 1) {
      expectProblem(await signIn('ana@acme.com', 'wrong password, long enough'), 401);
    }
    const throttled = expectProblem(await signIn('ana@acme.com', PASSWORD), 429, 'rate_limited');
    expect(throttled).toBeDefined();
    const waited = await signIn('ana@acme.com', PASSWORD);
    expect(Number(waited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    time.advance(Number(waited.headers['retry-after']) * 1000);
    expectSuccess('signInWithPassword', await signIn('ana@acme.com', PASSWORD));
    expectProblem(await signIn('ana@acme.com', 'wrong password, long enough'), 401);
    expectSuccess('signInWithPassword', await signIn('ana@acme.com', PASSWORD));
  });

  it('needs the console header: a form on another site cannot sign anyone in', async () => {
    const response = await send(service, undefined, 'signInWithPassword', {
      payload: { email: 'ana@acme.com', password: PASSWORD },
    });
    expectProblem(response, 403, 'csrf_refused');
  });

  it('ends password sessions when the organization turns passwords off', async () => {
    const cookie = cookieOf((await signIn('ana@acme.com', PASSWORD)).headers['set-cookie']);
    await ok(service, service.adminKey, 'setOrganizationSettings', {
      payload: {
        session_idle_minutes: 30,
        session_max_hours: 12,
        password_sign_in: false,
        sso: {
          issuer: 'https://idp.example.com',
          client_id: 'console',
          client_secret: 'secret',
          email_domains: ['acme.com'],
          groups_claim: 'groups',
          group_roles: {},
          default_role: 'viewer',
          jit: false,
        },
      },
    });
    expectProblem(await sendInSession(service, cookie, 'listConfigs'), 401, 'session_revoked');
    expectProblem(await signIn('ana@acme.com', PASSWORD), 403, 'forbidden');
    expect(
      await ok(service, undefined, 'getSignInOptions', { query: { email: 'ana@acme.com' } }),
    ).toEqual({
      password: false,
      sso: true,
    });
  });
});
