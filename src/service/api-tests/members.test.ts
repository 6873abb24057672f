import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, manualClock, ok, send } from '../testing/api';
import { sendInSession, sessionFromKey } from '../testing/sessions';
import { startTestService, type TestService } from '../testing/test-service';

const DAY = 86_400_000;
let time: ReturnType<typeof manualClock>;
let service: TestService;

beforeEach(async () => {
  time = manualClock();
  service = await startTestService({ clock: time.clock });
});
afterEach(async () => {
  await service.close();
});

async function userIdOf(key: string): Promise<string> {
  return (await ok(service, key, 'getAuthStatus')).user_id as string;
}

describe('members', () => {
  it('lists the members, oldest first, to anyone who reads configs', async () => {
    const viewerKey = await service.keyFor('viewer');
    const members = await ok(service, viewerKey, 'listMembers');
    expect(
      members.map(({ email, role, sign_in, status }) => ({ email, role, sign_in, status })),
    ).toEqual([
      { email: 'owner@example.com', role: 'admin', sign_in: 'none', status: 'active' },
      { email: 'viewer1@example.com', role: 'viewer', sign_in: 'none', status: 'active' },
    ]);
    // Managing them takes members:manage, which only admins hold.
    expectProblem(
      await send(service, viewerKey, 'updateMember', {
        params: { user_id: members[0]?.user_id as string },
        payload: { role: 'viewer' },
      }),
      403,
      'forbidden',
    );
  });

  it('changes a role, which applies to the member\u2019s next request and bounds their keys', async () => {
    const editorKey = await service.keyFor('editor');
    const editorId = await userIdOf(editorKey);
    const cookie = await sessionFromKey(service, editorKey);
    const changed = await ok(service, service.adminKey, 'updateMember', {
      params: { user_id: editorId },
      payload: { role: 'viewer' },
    });
    expect(changed.role).toBe('viewer');
    const status = await ok(service, editorKey, 'getAuthStatus');
    expect(status.role).toBe('viewer');
    expect(status.permissions).toEqual(['config:read']);
    expectProblem(
      await sendInSession(service, cookie, 'deleteConfig', { params: { id: 'cfg_any' } }),
      403,
    );
    const audit = await ok(service, service.adminKey, 'getAudit', { query: { action: 'member.' } });
    expect(audit[0]).toMatchObject({
      action: 'member.role_change',
      detail: { from: 'editor', to: 'viewer' },
    });
  });

  it('never leaves the account without an admin', async () => {
    const ownerId = service.account.user_id;
    expectProblem(
      await send(service, service.adminKey, 'updateMember', {
        params: { user_id: ownerId },
        payload: { role: 'editor' },
      }),
      409,
      'last_admin',
    );
    expectProblem(
      await send(service, service.adminKey, 'removeMember', { params: { user_id: ownerId } }),
      409,
      'last_admin',
    );
    const secondAdmin = await service.keyFor('admin');
    await ok(service, secondAdmin, 'updateMember', {
      params: { user_id: ownerId },
      payload: { role: 'editor' },
    });
    // Now the second admin is the last one.
    expectProblem(
      await send(service, secondAdmin, 'removeMember', {
        params: { user_id: await userIdOf(secondAdmin) },
      }),
      409,
      'last_admin',
    );
  });

  it('removes a member: their sessions end and their keys stop at once', async () => {
    const editorKey = await service.keyFor('editor');
    const editorId = await userIdOf(editorKey);
    const cookie = await sessionFromKey(service, editorKey);
    const response = await send(service, service.adminKey, 'removeMember', {
      params: { user_id: editorId },
    });
    expect(response.statusCode).toBe(204);
    expectProblem(await send(service, editorKey, 'getAuthStatus'), 401, 'api_key_revoked');
    expectProblem(await sendInSession(service, cookie, 'getAuthStatus'), 401, 'session_revoked');
    const members = await ok(service, service.adminKey, 'listMembers');
    expect(members.map((member) => member.user_id)).not.toContain(editorId);
    expectProblem(
      await send(service, service.adminKey, 'removeMember', { params: { user_id: editorId } }),
      404,
      'not_found',
    );
  });

  it("ends every session of a member: an admin's revocation", async () => {
    const editorKey = await service.keyFor('editor');
    const first = await sessionFromKey(service, editorKey);
    const second = await sessionFromKey(service, editorKey);
    const ended = await ok(service, service.adminKey, 'endMemberSessions', {
      params: { user_id: await userIdOf(editorKey) },
    });
    expect(ended.ended).toBe(2);
    for (const cookie of [first, second]) {
      expectProblem(await sendInSession(service, cookie, 'listConfigs'), 401, 'session_revoked');
    }
    // The key itself still works: only sessions were ended.
    await ok(service, editorKey, 'listConfigs');
  });

  it("cannot reach another account's members", async () => {
    const other = await service.otherAccount();
    expectProblem(
      await send(service, service.adminKey, 'removeMember', {
        params: { user_id: other.account.user_id },
      }),
      404,
    );
  });
});

describe('invitations', () => {
  it('invites with a one-time link shown once; the list never shows it', async () => {
    const created = await ok(service, service.adminKey, 'createInvitation', {
      payload: { email: 'Ana@Acme.com', role: 'editor' },
    });
    expect(created).toMatchObject({ email: 'ana@acme.com', role: 'editor', status: 'pending' });
    expect(created.expires_at).toBe(new Date(time.now().getTime() + 7 * DAY).toISOString());
    expect(created.link).toMatch(/^http:\/\/localhost(:80)?\/invitations\/[\w-]{43}$/);
    const listed = await ok(service, service.adminKey, 'listInvitations');
    expect(listed).toEqual([
      {
        id: created.id,
        email: created.email,
        role: 'editor',
        status: 'pending',
        created_at: created.created_at,
        expires_at: created.expires_at,
      },
    ]);
    const token = created.link.split('/').pop() as string;
    const rows = await service.rows('SELECT token_hash FROM invitations');
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('previews a link: pending, then revoked, expired; an unknown one is 404', async () => {
    const created = await ok(service, service.adminKey, 'createInvitation', {
      payload: { email: 'ana@acme.com', role: 'viewer' },
    });
    const token = created.link.split('/').pop() as string;
    const preview = await ok(service, undefined, 'previewInvitation', { params: { token } });
    expect(preview).toMatchObject({
      email: 'ana@acme.com',
      role: 'viewer',
      account_name: 'Test account',
      status: 'pending',
      password_sign_in: true,
    });
    time.advance(7 * DAY);
    expect((await ok(service, undefined, 'previewInvitation', { params: { token } })).status).toBe(
      'expired',
    );
    time.advance(-7 * DAY);
    await ok(service, service.adminKey, 'revokeInvitation', { params: { id: created.id } });
    expect((await ok(service, undefined, 'previewInvitation', { params: { token } })).status).toBe(
      'revoked',
    );
    expectProblem(
      await send(service, undefined, 'previewInvitation', { params: { token: 'nothing' } }),
      404,
    );
  });

  it('refuses to invite a member, and needs members:manage', async () => {
    expectProblem(
      await send(service, service.adminKey, 'createInvitation', {
        payload: { email: 'owner@example.com', role: 'viewer' },
      }),
      409,
      'conflict',
    );
    const editorKey = await service.keyFor('editor');
    expectProblem(
      await send(service, editorKey, 'createInvitation', {
        payload: { email: 'ana@acme.com', role: 'viewer' },
      }),
      403,
      'forbidden',
    );
  });

  it('refuses to accept a revoked or expired link, and needs the console header', async () => {
    const created = await ok(service, service.adminKey, 'createInvitation', {
      payload: { email: 'ana@acme.com', role: 'viewer' },
    });
    const token = created.link.split('/').pop() as string;
    const bare = await send(service, undefined, 'acceptInvitation', {
      params: { token },
      payload: { password: 'correct horse battery staple' },
    });
    expectProblem(bare, 403, 'csrf_refused');
    await ok(service, service.adminKey, 'revokeInvitation', { params: { id: created.id } });
    const revoked = await send(service, undefined, 'acceptInvitation', {
      params: { token },
      payload: { password: 'correct horse battery staple' },
      headers: { 'x-requested-with': 'console', 'sec-fetch-site': 'same-origin' },
    });
    expectProblem(revoked, 409, 'invitation_unusable');
  });
});

describe('organization settings', () => {
  it('reads the defaults, and refuses turning passwords off without SSO', async () => {
    const settings = await ok(service, service.adminKey, 'getOrganizationSettings');
    expect(settings).toMatchObject({
      session_idle_minutes: 30,
      session_max_hours: 12,
      password_sign_in: true,
      sso: null,
    });
    expectProblem(
      await send(service, service.adminKey, 'setOrganizationSettings', {
        payload: {
          session_idle_minutes: 30,
          session_max_hours: 12,
          password_sign_in: false,
          sso: null,
        },
      }),
      409,
      'conflict',
    );
  });

  it('keeps the client secret write-only, and shorter sessions apply at once', async () => {
    const cookie = await sessionFromKey(service, service.adminKey);
    const sso = {
      issuer: 'https://idp.example.com',
      client_id: 'console',
      email_domains: ['Acme.com'],
      groups_claim: 'groups',
      group_roles: { admins: 'admin' },
      default_role: 'viewer',
      jit: true,
    };
    expectProblem(
      await send(service, service.adminKey, 'setOrganizationSettings', {
        payload: { session_idle_minutes: 10, session_max_hours: 12, password_sign_in: true, sso },
      }),
      400,
      'invalid_request',
    );
    const saved = await ok(service, service.adminKey, 'setOrganizationSettings', {
      payload: {
        session_idle_minutes: 10,
        session_max_hours: 12,
        password_sign_in: true,
        sso: { ...sso, client_secret: 'very-secret-value' },
      },
    });
    expect(saved.sso).toMatchObject({ email_domains: ['acme.com'], client_secret_set: true });
    expect(JSON.stringify(saved)).not.toContain('very-secret-value');
    const audit = await ok(service, service.adminKey, 'getAudit', {
      query: { action: 'organization.settings' },
    });
    expect(JSON.stringify(audit)).not.toContain('very-secret-value');
    // Leaving the secret out keeps it.
    await ok(service, service.adminKey, 'setOrganizationSettings', {
      payload: { session_idle_minutes: 10, session_max_hours: 12, password_sign_in: true, sso },
    });
    time.advance(11 * 60_000);
    expectProblem(await sendInSession(service, cookie, 'listConfigs'), 401, 'session_expired');
    // The email domain now leads to SSO.
    expect(
      await ok(service, undefined, 'getSignInOptions', { query: { email: 'ana@acme.com' } }),
    ).toEqual({ password: true, sso: true });
  });
});
