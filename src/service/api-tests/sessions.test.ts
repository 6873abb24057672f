import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, expectSuccess, manualClock, ok, send } from '../testing/api';
import { consoleHeaders, cookieOf, sendInSession, sessionFromKey } from '../testing/sessions';
import { startTestService, type TestService } from '../testing/test-service';

const MINUTE = 60_000;
let time: ReturnType<typeof manualClock>;
let service: TestService;

beforeEach(async () => {
  time = manualClock();
  service = await startTestService({ clock: time.clock });
});
afterEach(async () => {
  await service.close();
});

describe('a key exchanged for a session', () => {
  it('sets an HttpOnly, SameSite=Strict cookie and reports the session and the key', async () => {
    const response = await send(service, service.adminKey, 'startKeySession');
    const status = expectSuccess('startKeySession', response);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^sid=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(status).toMatchObject({
      session_method: 'api_key',
      auth_type: 'api_key',
      email: 'owner@example.com',
      account_id: service.account.account_id,
      role: 'admin',
      expires_at: new Date(time.now().getTime() + 30 * MINUTE).toISOString(),
      session_max_expires_at: new Date(time.now().getTime() + 12 * 60 * MINUTE).toISOString(),
    });
    expect(status.session_id).toMatch(/^ses_/);
    expect(status.api_key_id).toMatch(/^key_/);

    const cookie = cookieOf(response.headers['set-cookie']);
    const again = expectSuccess(
      'getAuthStatus',
      await sendInSession(service, cookie, 'getAuthStatus'),
    );
    expect(again.session_id).toBe(status.session_id);
    // The cookie's value is nowhere in the answer: the session has a public id of its own.
    expect(JSON.stringify(again)).not.toContain(cookie.split('=')[1]);
  });

  it('keeps only the SHA-256 of the cookie in the database', async () => {
    const cookie = await sessionFromKey(service, service.adminKey);
    const token = cookie.split('=')[1] as string;
    const rows = await service.rows('SELECT token_hash FROM sessions');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('ends at the next request once its key is revoked', async () => {
    const editorKey = await service.keyFor('editor');
    const cookie = await sessionFromKey(service, editorKey);
    expectSuccess('listConfigs', await sendInSession(service, cookie, 'listConfigs'));
    const keyId = expectSuccess('getAuthStatus', await send(service, editorKey, 'getAuthStatus'))
      .api_key_id as string;
    await ok(service, service.adminKey, 'revokeApiKey', { params: { id: keyId } });
    expectProblem(await sendInSession(service, cookie, 'listConfigs'), 401, 'session_revoked');
  });

  it('is never taken from a cookie by a Bearer request, nor a key from a cookie', async () => {
    const response = await send(service, undefined, 'getAuthStatus', {
      headers: { cookie: `sid=${service.adminKey}` },
    });
    expectProblem(response, 401, 'session_revoked');
  });
});

describe('idle and absolute expiry', () => {
  it('expires after 30 idle minutes; reading the status is not activity', async () => {
    const cookie = await sessionFromKey(service, service.adminKey);
    time.advance(20 * MINUTE);
    expectSuccess('getAuthStatus', await sendInSession(service, cookie, 'getAuthStatus'));
    time.advance(11 * MINUTE);
    expectProblem(await sendInSession(service, cookie, 'getAuthStatus'), 401, 'session_expired');
    // Once ended, it stays ended (and says why) even if the clock were wound back.
    time.advance(-11 * MINUTE);
    expectProblem(await sendInSession(service, cookie, 'getAuthStatus'), 401, 'session_expired');
  });

  it('any other request restarts the idle time, and Stay signed in does too', async () => {
    const cookie = await sessionFromKey(service, service.adminKey);
    time.advance(20 * MINUTE);
    expectSuccess('listConfigs', await sendInSession(service, cookie, 'listConfigs'));
    time.advance(20 * MINUTE);
    const extended = expectSuccess(
      'extendSession',
      await sendInSession(service, cookie, 'extendSession'),
    );
    expect(extended.expires_at).toBe(new Date(time.now().getTime() + 30 * MINUTE).toISOString());
    time.advance(29 * MINUTE);
    expectSuccess('getAuthStatus', await sendInSession(service, cookie, 'getAuthStatus'));
  });

  it('ends after 12 hours whatever the activity', async () => {
    const cookie = await sessionFromKey(service, service.adminKey);
    for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
      time.advance(20 * MINUTE);
      expectSuccess('listConfigs', await sendInSession(service, cookie, 'listConfigs'));
    }
    time.advance(40 * MINUTE);
    expectProblem(await sendInSession(service, cookie, 'listConfigs'), 401, 'session_expired');
  });
});

describe('CSRF defences on a session', () => {
  const policy = {
    approvals_required: 0,
    reset_approvals_on_edit: true,
  };

  it('refuses a change without X-Requested-With: console', async () => {
    const cookie = await sessionFromKey(service, service.adminKey);
    const problem = expectProblem(
      await send(service, undefined, 'extendSession', { headers: { cookie } }),
      403,
      'csrf_refused',
    );
    expect(problem.errors?.[0]?.path).toBe('x-requested-with');
  });

  it('refuses a cross-site change, and without Sec-Fetch-Site another origin', async () => {
    const cookie = await sessionFromKey(service, service.adminKey);
    const crossSite = await send(service, undefined, 'extendSession', {
      headers: { ...consoleHeaders(cookie), 'sec-fetch-site': 'cross-site' },
    });
    expect(expectProblem(crossSite, 403, 'csrf_refused').errors?.[0]?.path).toBe('sec-fetch-site');
    const { 'sec-fetch-site': _dropped, ...withoutFetchSite } = consoleHeaders(cookie);
    const otherOrigin = await send(service, undefined, 'extendSession', {
      headers: { ...withoutFetchSite, origin: 'https://evil.example' },
    });
    expect(expectProblem(otherOrigin, 403, 'csrf_refused').errors?.[0]?.path).toBe('origin');
    const sameOrigin = await send(service, undefined, 'extendSession', {
      headers: { ...withoutFetchSite, origin: 'http://localhost:80' },
    });
    expectSuccess('extendSession', sameOrigin);
  });

  it('refuses a body that is not JSON with 415, and changes nothing', async () => {
    const cookie = await sessionFromKey(service, service.adminKey);
    const response = await sendInSession(service, cookie, 'setAccountPolicy', {
      payload: JSON.stringify(policy),
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(response, 415, 'unsupported_media_type');
  });

  it('lets a Bearer request through without any of them, and reads need none', async () => {
    expectSuccess(
      'setAccountPolicy',
      await send(service, service.adminKey, 'setAccountPolicy', { payload: policy }),
    );
    const cookie = await sessionFromKey(service, service.adminKey);
    expectSuccess(
      'listConfigs',
      await send(service, undefined, 'listConfigs', { headers: { cookie } }),
    );
    expect(
      (await sendInSession(service, cookie, 'setAccountPolicy', { payload: policy })).statusCode,
    ).toBe(200);
  });
});

describe('signing out and your sessions', () => {
  it('signs out on the server: the replayed cookie is refused', async () => {
    const cookie = await sessionFromKey(service, service.adminKey);
    const response = await sendInSession(service, cookie, 'signOut');
    expectSuccess('signOut', response);
    expect(String(response.headers['set-cookie'])).toContain('Max-Age=0');
    expectProblem(await sendInSession(service, cookie, 'getAuthStatus'), 401, 'session_revoked');
  });

  it('lists your open sessions with the current one marked, and ends them', async () => {
    const first = await sessionFromKey(service, service.adminKey);
    time.advance(1000);
    const second = await sessionFromKey(service, service.adminKey);
    const sessions = expectSuccess(
      'listSessions',
      await sendInSession(service, second, 'listSessions'),
    );
    expect(sessions.map((session) => session.current)).toEqual([true, false]);
    expect(sessions[0]).toMatchObject({ method: 'api_key', ip: '127.0.0.1' });

    const firstId = sessions[1]?.id as string;
    expectProblem(
      await sendInSession(service, second, 'endSession', { params: { id: 'ses_unknown' } }),
      404,
      'not_found',
    );
    expect(
      (await sendInSession(service, second, 'endSession', { params: { id: firstId } })).statusCode,
    ).toBe(204);
    expectProblem(await sendInSession(service, first, 'listConfigs'), 401, 'session_revoked');

    const third = await sessionFromKey(service, service.adminKey);
    const ended = expectSuccess(
      'endOtherSessions',
      await sendInSession(service, third, 'endOtherSessions'),
    );
    expect(ended.ended).toBe(1);
    expectProblem(await sendInSession(service, second, 'listConfigs'), 401, 'session_revoked');
    expectSuccess('listConfigs', await sendInSession(service, third, 'listConfigs'));
  });

  it('is in the audit trail: start, sign-out', async () => {
    const cookie = await sessionFromKey(service, service.adminKey);
    await sendInSession(service, cookie, 'signOut');
    const audit = await ok(service, service.adminKey, 'getAudit', {
      query: { action: 'session.' },
    });
    expect(audit.map((entry) => entry.action)).toEqual(['session.sign_out', 'session.start']);
    expect(audit[0]?.ip).toBe('127.0.0.1');
  });
});
