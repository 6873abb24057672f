/**
 * GET /client-keys, POST /client-keys, DELETE /client-keys/{id} (docs/delivery.md): keys
 * for apps, managed with api_keys:manage, recorded in the audit log; and a client key is
 * refused as an API key everywhere else.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_KEY_PATTERN } from '../../contract/delivery';
import { errorPaths, expectProblem, expectSuccess, manualClock, ok, send } from '../testing/api';
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

async function auditOf(targetId: string) {
  return service.rows<{ action: string; actor: string | null; detail: string }>(
    'SELECT action, actor, detail FROM audit_log WHERE target_id = ? ORDER BY seq',
    targetId,
  );
}

describe('POST /client-keys', () => {
  it('creates a key for every app by default: ck_ and 24 base62 characters', async () => {
    const response = await send(service, admin, 'createClientKey', {
      payload: { name: 'Web shop' },
    });
    const created = expectSuccess('createClientKey', response, 201);
    expect(created).toEqual({
      id: expect.stringMatching(/^ckey_[0-9A-Z]{26}$/),
      name: 'Web shop',
      key: expect.stringMatching(CLIENT_KEY_PATTERN),
      apps: null,
      created_at: '2026-11-22T10:00:00.000Z',
      revoked_at: null,
    });
    expect(Object.keys(response.json() as object).sort()).toEqual(
      ['apps', 'created_at', 'id', 'key', 'name', 'revoked_at'].sort(),
    );
    const audit = await auditOf(created.id);
    expect(audit.map((entry) => entry.action)).toEqual(['client_key.create']);
    expect(audit[0]?.actor).toMatch(/^key_/);
    expect(JSON.parse(audit[0]?.detail ?? '{}')).toEqual({ name: 'Web shop', apps: null });
  });

  it('scopes a key to the apps given, and makes a different key each time', async () => {
    const scoped = await ok(service, admin, 'createClientKey', {
      payload: { name: 'iOS', apps: ['ios-app', 'checkout'] },
    });
    expect(scoped.apps).toEqual(['ios-app', 'checkout']);
    const again = await ok(service, admin, 'createClientKey', { payload: { name: 'iOS' } });
    expect(again.key).not.toBe(scoped.key);
    expect(again.id).not.toBe(scoped.id);
  });

  it.each([
    [{}, '/name'],
    [{ name: '' }, '/name'],
    [{ name: '   ' }, '/name'],
    [{ name: 'x'.repeat(101) }, '/name'],
    [{ name: 7 }, '/name'],
    [{ name: 'A', apps: [] }, '/apps'],
    [{ name: 'A', apps: 'checkout' }, '/apps'],
    [{ name: 'A', apps: ['checkout', 'checkout'] }, '/apps'],
    [{ name: 'A', apps: ['Not An Id!'] }, '/apps/0'],
  ])('refuses %o with a 400 naming %s, and saves nothing', async (payload, path) => {
    const problem = expectProblem(
      await send(service, admin, 'createClientKey', { payload }),
      400,
      'invalid_request',
    );
    expect(errorPaths(problem)).toContain(path);
    expect(await ok(service, admin, 'listClientKeys')).toEqual([]);
  });
});

describe('GET /client-keys', () => {
  it("lists the account's keys, newest first, revoked ones included, and no other account's", async () => {
    const first = await ok(service, admin, 'createClientKey', { payload: { name: 'First' } });
    clock.advance(1_000);
    const second = await ok(service, admin, 'createClientKey', {
      payload: { name: 'Second', apps: ['checkout'] },
    });
    await ok(service, admin, 'revokeClientKey', { params: { id: first.id } });
    const other = await service.otherAccount();
    await ok(service, other.key, 'createClientKey', { payload: { name: 'Theirs' } });

    const listed = await ok(service, admin, 'listClientKeys');
    expect(listed.map((key) => key.name)).toEqual(['Second', 'First']);
    expect(listed[0]).toEqual(second);
    expect(listed[1]?.revoked_at).toBe('2026-11-22T10:00:01.000Z');
    expect((await ok(service, other.key, 'listClientKeys')).map((key) => key.name)).toEqual([
      'Theirs',
    ]);
  });
});

describe('DELETE /client-keys/{id}', () => {
  it('revokes once, audits once, and returns the key unchanged when revoked again', async () => {
    const created = await ok(service, admin, 'createClientKey', { payload: { name: 'Web' } });
    clock.advance(60_000);
    const revoked = await ok(service, admin, 'revokeClientKey', { params: { id: created.id } });
    expect(revoked).toEqual({ ...created, revoked_at: '2026-11-22T10:01:00.000Z' });
    clock.advance(60_000);
    const again = await ok(service, admin, 'revokeClientKey', { params: { id: created.id } });
    expect(again).toEqual(revoked);
    expect((await auditOf(created.id)).map((entry) => entry.action)).toEqual([
      'client_key.create',
      'client_key.revoke',
    ]);
  });

  it("answers 404 for another account's key and for an unknown id, and revokes nothing", async () => {
    const other = await service.otherAccount();
    const theirs = await ok(service, other.key, 'createClientKey', { payload: { name: 'T' } });
    expectProblem(
      await send(service, admin, 'revokeClientKey', { params: { id: theirs.id } }),
      404,
      'not_found',
    );
    expectProblem(
      await send(service, admin, 'revokeClientKey', { params: { id: 'ckey_nope' } }),
      404,
      'not_found',
    );
    expect((await ok(service, other.key, 'listClientKeys'))[0]?.revoked_at).toBeNull();
  });
});

describe('permissions', () => {
  it.each(['editor', 'viewer'] as const)(
    'a key of a %s (no client_keys:manage) gets 403 on every client key endpoint',
    async (role) => {
      const key = await service.keyFor(role);
      const created = await ok(service, admin, 'createClientKey', { payload: { name: 'W' } });
      for (const response of [
        await send(service, key, 'listClientKeys'),
        await send(service, key, 'createClientKey', { payload: { name: 'Mine' } }),
        await send(service, key, 'revokeClientKey', { params: { id: created.id } }),
      ]) {
        const problem = expectProblem(response, 403, 'forbidden');
        expect(problem.detail).toContain('client_keys:manage');
      }
      expect((await ok(service, admin, 'listClientKeys')).map((k) => k.revoked_at)).toEqual([null]);
    },
  );

  it('refuses a request without a key with 401', async () => {
    expectProblem(await send(service, undefined, 'listClientKeys'), 401, 'unauthenticated');
  });
});

describe('a client key sent as an API key', () => {
  it('gets 401 api_key_invalid saying what a client key is for, on /auth/status and /configs', async () => {
    const { key } = await ok(service, admin, 'createClientKey', { payload: { name: 'W' } });
    for (const name of ['getAuthStatus', 'listConfigs', 'listClientKeys'] as const) {
      const problem = expectProblem(await send(service, key, name), 401, 'api_key_invalid');
      expect(problem.detail).toContain('client key');
      expect(problem.detail).toContain('delivery');
    }
  });
});
