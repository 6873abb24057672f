/**
 * Authentication and permissions: GET /auth/status; 401 with the RFC 6750 challenge and a
 * code for each way a key fails (missing, invalid, revoked, expired); 403 with
 * insufficient_scope for a missing permission.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../contract/auth-status';
import type { UnauthenticatedCode } from '../../contract/problem';
import { generateSecret } from '../domain/api-key-secrets';
import { Refused } from '../domain/refusals';
import { openDatabase } from '../store/database';
import {
  CREATE_APP,
  edit,
  editOk,
  expectProblem,
  expectSuccess,
  manualClock,
  ok,
  send,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

const CHALLENGE = 'Bearer realm="provisioning"';

const APP_WITH_TEST = `apps:
  - id: checkout
    name: Checkout
    platform: web
ab_tests: []
`;

let clock: ReturnType<typeof manualClock>;
let service: TestService;

beforeEach(async () => {
  clock = manualClock();
  service = await startTestService({ clock: clock.clock, initialYaml: APP_WITH_TEST });
});
afterEach(async () => {
  await service.close();
});

function expectInvalidToken(
  response: Awaited<ReturnType<typeof send>>,
  code: Exclude<UnauthenticatedCode, 'unauthenticated'>,
) {
  const problem = expectProblem(response, 401, code);
  const challenge = String(response.headers['www-authenticate']);
  expect(challenge.startsWith(`${CHALLENGE}, `)).toBe(true);
  expect(challenge).toContain('error="invalid_token"');
  expect(challenge).toContain(`error_description="${problem.detail}"`);
}

function expectInsufficientScope(response: Awaited<ReturnType<typeof send>>, scope: string) {
  expectProblem(response, 403, 'forbidden');
  const challenge = String(response.headers['www-authenticate']);
  expect(challenge.startsWith(`${CHALLENGE}, `)).toBe(true);
  expect(challenge).toContain('error="insufficient_scope"');
  expect(challenge).toContain(`scope="${scope}"`);
}

describe('GET /auth/status', () => {
  it('describes the admin key with every field of the record', async () => {
    const response = await send(service, service.adminKey, 'getAuthStatus');
    const status = await ok(service, service.adminKey, 'getAuthStatus');
    const raw = response.json() as Record<string, unknown>;

    expect(status).toEqual({
      idp_organization_id: expect.stringMatching(/^org_/),
      auth_type: 'api_key',
      email: 'owner@example.com',
      idp_user_id: expect.stringMatching(/^idp_/),
      account_id: service.account.account_id,
      user_id: service.account.user_id,
      role: 'admin',
      api_key_id: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
      api_key_name: 'Owner key',
      api_key_obfuscated_value: `sk_…${service.adminKey.slice(-4)}`,
      account_type: 'production',
      permissions: [...PERMISSIONS],
      organization_owner: true,
    });
    // Absent, not null: the key never expires and there are no browser sessions.
    expect(raw).not.toHaveProperty('expires_at');
    expect(raw).not.toHaveProperty('session_id');
    expect(response.body).not.toContain(service.adminKey);
  });

  it('gives expires_at, in ISO 8601 UTC, only for an expiring key', async () => {
    const key = await service.keyFor('editor', { expiresInDays: 30 });
    const status = await ok(service, key, 'getAuthStatus');
    const expected = new Date(clock.now().getTime() + 30 * 86_400_000).toISOString();
    expect(status.expires_at).toBe(expected);
    expect(status.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(status).not.toHaveProperty('session_id');
  });

  it("gives a viewer's role and permissions", async () => {
    const key = await service.keyFor('viewer');
    const status = await ok(service, key, 'getAuthStatus');
    expect(status.role).toBe('viewer');
    expect(status.permissions).toEqual(['config:read']);
    expect(status.api_key_name).toBe('viewer key');
    expect(status.email).toMatch(/^viewer\d+@example\.com$/);
    expect(status.user_id).not.toBe(service.account.user_id);
    expect(status.account_id).toBe(service.account.account_id);
  });

  it('answers each key with its own status, asked again and again, in the same bytes', async () => {
    const viewer = await service.keyFor('viewer');
    const first = new Map<string, string>();
    for (let round = 0; round < 3; round++) {
      for (const key of [service.adminKey, viewer]) {
        const response = await send(service, key, 'getAuthStatus');
        expectSuccess('getAuthStatus', response);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        if (round === 0) first.set(key, response.body);
        else expect(response.body).toBe(first.get(key));
      }
    }
    expect(first.get(service.adminKey)).toContain('"role":"admin"');
    expect(first.get(viewer)).toContain('"role":"viewer"');
  });

  it('follows a change made by another process at the very next request', async () => {
    const before = await ok(service, service.adminKey, 'getAuthStatus');
    expect(before.email).toBe('owner@example.com');
    const sql = 'UPDATE users SET email = ? WHERE id = ?';
    const params = ['renamed@example.com', service.account.user_id];
    if (service.storeKind === 'sqlite') {
      const other = openDatabase(service.dataDir);
      other.prepare(sql).run(...params);
      other.close();
    } else {
      await service.rows(`${sql} RETURNING id`, ...params);
    }
    const after = await ok(service, service.adminKey, 'getAuthStatus');
    expect(after).toEqual({ ...before, email: 'renamed@example.com' });
  });

  it("gives a key's own permissions when they are fewer than its role's", async () => {
    const key = await service.keyFor('admin', { permissions: ['config:read'] });
    const status = await ok(service, key, 'getAuthStatus');
    expect(status.role).toBe('admin');
    expect(status.permissions).toEqual(['config:read']);
  });
});

describe('401', () => {
  it('answers a request without Authorization with the bare challenge', async () => {
    for (const name of ['getAuthStatus', 'listConfigs', 'listApiKeys'] as const) {
      const response = await send(service, undefined, name);
      expectProblem(response, 401, 'unauthenticated');
      expect(response.headers['www-authenticate']).toBe(CHALLENGE);
    }
    const editResponse = await edit(service, '', { operations: [CREATE_APP('a')], summary: 's' });
    expectProblem(editResponse, 401, 'unauthenticated');
    expect(editResponse.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it('authenticates before it reads the body: a bad body without a key is a 401, not a 400', async () => {
    const response = await edit(service, '', { operations: [] });
    expectProblem(response, 401, 'unauthenticated');
    // And with a key that fails, whichever way it fails.
    const revoked = await service.keyFor('editor');
    const { api_key_id } = await ok(service, revoked, 'getAuthStatus');
    await ok(service, service.adminKey, 'revokeApiKey', { params: { id: api_key_id ?? '' } });
    for (const [key, code] of [
      [generateSecret(), 'api_key_invalid'],
      ['sk_nope', 'api_key_invalid'],
      [revoked, 'api_key_revoked'],
    ] as const) {
      expectInvalidToken(await edit(service, key, { operations: [] }), code);
    }
  });

  it('counts a refused key against the address, and a valid key in its own bucket', async () => {
    const limited = await startTestService({ clock: clock.clock, rateLimit: { rps: 5, burst: 5 } });
    try {
      const revoked = await limited.keyFor('editor');
      const expiring = await limited.keyFor('viewer', { expiresInDays: 1 });
      const { api_key_id } = await ok(limited, revoked, 'getAuthStatus');
      await ok(limited, expiring, 'getAuthStatus');
      await ok(limited, limited.adminKey, 'revokeApiKey', { params: { id: api_key_id ?? '' } });
      clock.advance(86_400_000);

      expectInvalidToken(await send(limited, revoked, 'getAuthStatus'), 'api_key_revoked');
      expectInvalidToken(await send(limited, expiring, 'getAuthStatus'), 'api_key_expired');
      expectInvalidToken(await send(limited, generateSecret(), 'getAuthStatus'), 'api_key_invalid');
      expectInvalidToken(await send(limited, 'sk_nope', 'getAuthStatus'), 'api_key_invalid');
      expectProblem(await send(limited, undefined, 'getAuthStatus'), 401, 'unauthenticated');
      // Five refused requests from one address: the sixth without a valid key is limited.
      expectProblem(await send(limited, revoked, 'getAuthStatus'), 429, 'rate_limited');
      expectProblem(await send(limited, undefined, 'getOpenApiDocument'), 429, 'rate_limited');
      // The admin key used its bucket once (the revocation) and goes on.
      await ok(limited, limited.adminKey, 'getAuthStatus');
    } finally {
      await limited.close();
    }
  });

  it.each([
    ['not a key', 'Bearer nope'],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a key with one character changed (checksum)', 'CHANGED'],
    ['a truncated key', 'TRUNCATED'],
  ])('refuses %s as api_key_invalid, with error="invalid_token"', async (_what, header) => {
    const value =
      header === 'CHANGED'
        ? `Bearer ${service.adminKey.slice(0, 10)}${service.adminKey[10] === 'a' ? 'b' : 'a'}${service.adminKey.slice(11)}`
        : header === 'TRUNCATED'
          ? `Bearer ${service.adminKey.slice(0, -1)}`
          : header;
    const response = await send(service, undefined, 'getAuthStatus', {
      headers: { authorization: value },
    });
    expectInvalidToken(response, 'api_key_invalid');
    expect(response.body).not.toContain(service.adminKey);
  });

  it('accepts the scheme in any case (RFC 6750 / 9110)', async () => {
    const response = await send(service, undefined, 'getAuthStatus', {
      headers: { authorization: `bearer ${service.adminKey}` },
    });
    expect(expectSuccess('getAuthStatus', response).role).toBe('admin');
  });

  it('refuses a well-formed key that the server never issued as api_key_invalid', async () => {
    const response = await send(service, generateSecret(), 'getAuthStatus');
    expectInvalidToken(response, 'api_key_invalid');
  });

  it('refuses a revoked key on the very next request', async () => {
    const key = await service.keyFor('editor');
    const { api_key_id } = await ok(service, key, 'getAuthStatus');
    await ok(service, key, 'listConfigs');

    const revoked = await ok(service, service.adminKey, 'revokeApiKey', {
      params: { id: api_key_id ?? '' },
    });
    expect(revoked.revoked_at).toBe(clock.now().toISOString());

    expectInvalidToken(await send(service, key, 'listConfigs'), 'api_key_revoked');
    expectInvalidToken(await send(service, key, 'getAuthStatus'), 'api_key_revoked');
    expectInvalidToken(
      await edit(service, key, { operations: [CREATE_APP('a')], summary: 's' }),
      'api_key_revoked',
    );
    // The revoker is unaffected.
    await ok(service, service.adminKey, 'getAuthStatus');
  });

  it('lets a key revoke itself, and refuses it from the next request on', async () => {
    const created = await ok(service, service.adminKey, 'createApiKey', {
      payload: { name: 'Short-lived' },
    });
    await ok(service, created.secret, 'getAuthStatus');
    const revoked = await ok(service, created.secret, 'revokeApiKey', {
      params: { id: created.id },
    });
    expect(revoked.id).toBe(created.id);
    expect(revoked.revoked_at).not.toBeNull();
    expectInvalidToken(await send(service, created.secret, 'getAuthStatus'), 'api_key_revoked');
    expectInvalidToken(
      await send(service, created.secret, 'revokeApiKey', { params: { id: created.id } }),
      'api_key_revoked',
    );
  });

  it('refuses an expired key from the moment it expires', async () => {
    const key = await service.keyFor('editor', { expiresInDays: 1 });
    const { expires_at } = await ok(service, key, 'getAuthStatus');
    const expiresAt = Date.parse(expires_at ?? '');

    clock.set(new Date(expiresAt - 1));
    await ok(service, key, 'getAuthStatus');
    await editOk(service, key, { operations: [CREATE_APP('before')], summary: 'still valid' });

    clock.set(new Date(expiresAt));
    expectInvalidToken(await send(service, key, 'getAuthStatus'), 'api_key_expired');

    clock.advance(86_400_000);
    expectInvalidToken(await send(service, key, 'getAuthStatus'), 'api_key_expired');
    expectInvalidToken(
      await edit(service, key, { operations: [CREATE_APP('after')], summary: 's' }),
      'api_key_expired',
    );
    // A key without expiry is unaffected by time.
    await ok(service, service.adminKey, 'getAuthStatus');
  });
});

describe('403', () => {
  it('refuses a viewer editing, and saves nothing', async () => {
    const viewer = await service.keyFor('viewer');
    const before = await ok(service, viewer, 'listConfigs');
    const response = await edit(service, viewer, {
      operations: [CREATE_APP('blocked')],
      summary: 'Not allowed',
    });
    expectInsufficientScope(response, 'config:write');
    expect(await ok(service, viewer, 'listConfigs')).toEqual(before);
    // Reads are fine.
    await ok(service, viewer, 'getLiveConfig');
  });

  it('refuses a viewer discarding a draft', async () => {
    const draft = await editOk(service, service.adminKey, {
      operations: [CREATE_APP('a')],
      summary: 'Draft',
    });
    const viewer = await service.keyFor('viewer');
    const response = await send(service, viewer, 'deleteConfig', { params: { id: draft.id } });
    expectInsufficientScope(response, 'config:write');
    await ok(service, viewer, 'getConfig', { params: { id: draft.id } });
  });

  it('refuses an editor publishing or activating', async () => {
    const editor = await service.keyFor('editor');
    const draft = await editOk(service, editor, {
      operations: [CREATE_APP('a')],
      summary: 'Draft',
    });
    expectInsufficientScope(
      await send(service, editor, 'publishConfig', { params: { id: draft.id } }),
      'config:publish',
    );
    expectInsufficientScope(
      await send(service, editor, 'activateConfig', {
        params: { id: service.account.live_config_id },
      }),
      'config:publish',
    );
    const still = await ok(service, editor, 'getConfig', { params: { id: draft.id } });
    expect(still.kind).toBe('draft');
  });

  it('refuses an editor running a lifecycle operation (start_ab_test needs config:publish)', async () => {
    const editor = await service.keyFor('editor');
    const draft = await editOk(service, editor, {
      operations: [
        {
          create_ab_test: [
            {
              id: 'bigger-button',
              app: 'checkout',
              variants: [
                { id: 'control', weight: 50 },
                { id: 'big', weight: 50 },
              ],
            },
          ],
        },
      ],
    });
    const liveBefore = await ok(service, editor, 'getLiveConfig');
    const response = await edit(service, editor, {
      operations: [{ start_ab_test: [{ id: 'bigger-button' }] }],
      config_id: draft.id,
    });
    expectInsufficientScope(response, 'config:publish');
    expect((await ok(service, editor, 'getLiveConfig')).id).toBe(liveBefore.id);
    expect((await ok(service, editor, 'getConfig', { params: { id: draft.id } })).revision).toBe(1);
  });

  it('refuses listing, creating and revoking keys without api_keys:manage', async () => {
    const editor = await service.keyFor('editor');
    const limitedAdmin = await service.keyFor('admin', {
      permissions: ['config:read', 'config:write', 'config:publish'],
    });
    for (const key of [editor, limitedAdmin]) {
      expectInsufficientScope(await send(service, key, 'listApiKeys'), 'api_keys:manage');
      expectInsufficientScope(
        await send(service, key, 'createApiKey', { payload: { name: 'x' } }),
        'api_keys:manage',
      );
    }
    const { api_key_id } = await ok(service, service.adminKey, 'getAuthStatus');
    expectInsufficientScope(
      await send(service, editor, 'revokeApiKey', { params: { id: api_key_id ?? '' } }),
      'api_keys:manage',
    );
    await ok(service, service.adminKey, 'getAuthStatus');
  });
});

describe('what a key may grant', () => {
  it("refuses a key with permissions beyond its user's role (403)", async () => {
    // Only admins hold api_keys:manage, so over HTTP a key is always minted by an admin; the
    // role ceiling itself is enforced where keys are made (here, through the test helper).
    await expect(
      service.keyFor('editor', { permissions: ['config:read', 'config:publish'] }),
    ).rejects.toSatisfy((error) => error instanceof Refused && error.kind === 'beyond_permissions');
    await expect(
      service.keyFor('viewer', { permissions: ['config:write'] }),
    ).rejects.toBeInstanceOf(Refused);
  });

  it('does not let a key mint a key with more than its own permissions', async () => {
    const limited = await service.keyFor('admin', {
      permissions: ['config:read', 'api_keys:manage'],
    });
    const idsOfKeys = async () =>
      (await ok(service, service.adminKey, 'listApiKeys')).map((key) => key.id);
    const before = await idsOfKeys();

    for (const permissions of [
      ['config:read', 'config:publish'],
      ['config:write'],
      [...PERMISSIONS],
    ]) {
      const response = await send(service, limited, 'createApiKey', {
        payload: { name: 'Stronger', permissions },
      });
      expectProblem(response, 403, 'forbidden');
    }
    expect(await idsOfKeys()).toEqual(before);

    // Without permissions, the new key gets what the creating key has, not the whole role.
    const created = await ok(service, limited, 'createApiKey', { payload: { name: 'Default' } });
    expect(created.permissions).toEqual(['config:read', 'api_keys:manage']);
    const status = await ok(service, created.secret, 'getAuthStatus');
    expect(status.permissions).toEqual(['config:read', 'api_keys:manage']);
    expectInsufficientScope(
      await edit(service, created.secret, { operations: [CREATE_APP('a')], summary: 's' }),
      'config:write',
    );

    // Fewer permissions are fine.
    const weaker = await ok(service, limited, 'createApiKey', {
      payload: { name: 'Reader', permissions: ['config:read'] },
    });
    expect(weaker.permissions).toEqual(['config:read']);
  });
});
