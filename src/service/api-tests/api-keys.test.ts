/**
 * GET /api-keys, POST /api-keys, DELETE /api-keys/{id} (docs/api.md): the secret is shown
 * once, in the 201, and never again; lists carry no secret and no hash.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../contract/auth-status';
import { hashSecret } from '../domain/api-key-secrets';
import { expectProblem, expectSuccess, manualClock, ok, send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let clock: ReturnType<typeof manualClock>;
let service: TestService;
let admin: string;

beforeEach(async () => {
  clock = manualClock('2026-11-22T10:00:00.000Z');
  service = await startTestService({ clock: clock.clock });
  admin = service.adminKey;
});
afterEach(async () => {
  await service.close();
});

describe('GET /api-keys', () => {
  it("lists the account's keys without secrets or hashes", async () => {
    const editorKey = await service.keyFor('editor');
    const other = await service.otherAccount();
    const response = await send(service, admin, 'listApiKeys');
    const keys = expectSuccess('listApiKeys', response);

    expect(keys.map((key) => key.name).sort()).toEqual(['Owner key', 'editor key']);
    const owner = keys.find((key) => key.name === 'Owner key');
    expect(owner).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'Owner key',
      obfuscated_value: `sk_…${admin.slice(-4)}`,
      permissions: [...PERMISSIONS],
      created_at: '2026-11-22T10:00:00.000Z',
      last_used_at: '2026-11-22T10:00:00.000Z',
      expires_at: null,
      revoked_at: null,
    });
    for (const raw of response.json() as Record<string, unknown>[]) {
      expect(Object.keys(raw).sort()).toEqual(
        [
          'id',
          'name',
          'obfuscated_value',
          'permissions',
          'created_at',
          'last_used_at',
          'expires_at',
          'revoked_at',
        ].sort(),
      );
    }
    for (const secret of [admin, editorKey, other.key]) {
      expect(response.body).not.toContain(secret);
      expect(response.body).not.toContain(hashSecret(secret));
    }
    expect(response.body).not.toMatch(/sk_[0-9A-Za-z]{40}/);
  });

  it('records when a key was last used', async () => {
    const viewer = await service.keyFor('viewer');
    const find = async () =>
      (await ok(service, admin, 'listApiKeys')).find((key) => key.name === 'viewer key');
    expect((await find())?.last_used_at).toBeNull();
    clock.advance(5 * 60_000);
    await ok(service, viewer, 'getAuthStatus');
    expect((await find())?.last_used_at).toBe('2026-11-22T10:05:00.000Z');
  });
});

describe('POST /api-keys', () => {
  it('creates a key and shows its secret once, in the 201', async () => {
    const response = await send(service, admin, 'createApiKey', {
      payload: { name: 'CI deploys', permissions: ['config:read', 'config:write'] },
    });
    const created = expectSuccess('createApiKey', response, 201);
    expect(created).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'CI deploys',
      obfuscated_value: `sk_…${created.secret.slice(-4)}`,
      permissions: ['config:read', 'config:write'],
      created_at: '2026-11-22T10:00:00.000Z',
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
      secret: expect.stringMatching(/^sk_[0-9A-Za-z]{40}$/),
    });

    // The secret works as a key, for exactly what it was given.
    const status = await send(service, created.secret, 'getAuthStatus');
    expect(expectSuccess('getAuthStatus', status)).toMatchObject({
      api_key_id: created.id,
      api_key_name: 'CI deploys',
      api_key_obfuscated_value: created.obfuscated_value,
      user_id: service.account.user_id,
      role: 'admin',
      permissions: ['config:read', 'config:write'],
    });
    expect(status.body).not.toContain(created.secret);
    expectProblem(await send(service, created.secret, 'listApiKeys'), 403);

    // Never again: not in a list, not in a revocation.
    const list = await send(service, admin, 'listApiKeys');
    expect(list.body).not.toContain(created.secret);
    expect(expectSuccess('listApiKeys', list).map((key) => key.id)).toContain(created.id);
    const revoked = await send(service, admin, 'revokeApiKey', { params: { id: created.id } });
    expect(revoked.body).not.toContain(created.secret);
  });

  it("defaults to every permission of the caller's key", async () => {
    const created = await ok(service, admin, 'createApiKey', { payload: { name: 'All' } });
    expect(created.permissions).toEqual([...PERMISSIONS]);
  });

  it('sets expires_at from expires_in_days', async () => {
    const created = await ok(service, admin, 'createApiKey', {
      payload: { name: 'Temporary', expires_in_days: 7 },
    });
    expect(created.expires_at).toBe('2026-11-29T10:00:00.000Z');
    const status = await ok(service, created.secret, 'getAuthStatus');
    expect(status.expires_at).toBe('2026-11-29T10:00:00.000Z');
    clock.set('2026-11-29T10:00:00.000Z');
    expectProblem(await send(service, created.secret, 'getAuthStatus'), 401);
  });

  it('gives every key a different secret', async () => {
    const secrets = new Set<string>();
    for (let i = 0; i < 5; i++) {
      secrets.add(
        (await ok(service, admin, 'createApiKey', { payload: { name: `k${i}` } })).secret,
      );
    }
    expect(secrets.size).toBe(5);
  });

  it.each<[string, unknown, string[]]>([
    ['no name', {}, ['/name']],
    ['a blank name', { name: '   ' }, ['/name']],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, ['/name']],
    ['an unknown permission', { name: 'k', permissions: ['superuser'] }, ['/permissions/0']],
    ['no permissions', { name: 'k', permissions: [] }, ['/permissions']],
    [
      'a repeated permission',
      { name: 'k', permissions: ['config:read', 'config:read'] },
      ['/permissions'],
    ],
    ['expires_in_days 0', { name: 'k', expires_in_days: 0 }, ['/expires_in_days']],
    ['expires_in_days 1.5', { name: 'k', expires_in_days: 1.5 }, ['/expires_in_days']],
    ['expires_in_days over 3650', { name: 'k', expires_in_days: 3651 }, ['/expires_in_days']],
  ])('refuses %s with 400', async (_what, payload, paths) => {
    const before = await ok(service, admin, 'listApiKeys');
    const problem = expectProblem(
      await send(service, admin, 'createApiKey', { payload }),
      400,
      'invalid_request',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual(paths);
    expect(await ok(service, admin, 'listApiKeys')).toHaveLength(before.length);
  });

  it('accepts expires_in_days at its edges', async () => {
    for (const days of [1, 3650]) {
      const created = await ok(service, admin, 'createApiKey', {
        payload: { name: `${days}`, expires_in_days: days },
      });
      expect(Date.parse(created.expires_at ?? '')).toBe(clock.now().getTime() + days * 86_400_000);
    }
  });
});

describe('DELETE /api-keys/{id}', () => {
  it('revokes a key; revoking it again returns it unchanged', async () => {
    const created = await ok(service, admin, 'createApiKey', { payload: { name: 'Doomed' } });
    clock.advance(60_000);
    const revoked = await ok(service, admin, 'revokeApiKey', { params: { id: created.id } });
    expect(revoked).toMatchObject({
      id: created.id,
      name: 'Doomed',
      revoked_at: '2026-11-22T10:01:00.000Z',
    });
    expect(revoked).not.toHaveProperty('secret');
    expectProblem(await send(service, created.secret, 'getAuthStatus'), 401);

    clock.advance(60_000);
    const again = await ok(service, admin, 'revokeApiKey', { params: { id: created.id } });
    expect(again.revoked_at).toBe('2026-11-22T10:01:00.000Z');
    const listed = (await ok(service, admin, 'listApiKeys')).find((key) => key.id === created.id);
    expect(listed?.revoked_at).toBe('2026-11-22T10:01:00.000Z');
  });

  it('answers 404 for an unknown key and for another account’s key, which keeps working', async () => {
    const other = await service.otherAccount();
    const { api_key_id: theirId } = await ok(service, other.key, 'getAuthStatus');
    for (const id of ['key_NOPE', theirId ?? '']) {
      expectProblem(
        await send(service, admin, 'revokeApiKey', { params: { id } }),
        404,
        'not_found',
      );
    }
    await ok(service, other.key, 'getAuthStatus');
  });
});
