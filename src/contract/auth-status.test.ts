import { describe, expect, it } from 'vitest';
import {
  authStatusSchema,
  hasPermission,
  PERMISSIONS,
  permissionSchema,
  ROLE_PERMISSIONS,
  roleSchema,
  ROLES,
} from './auth-status';
import { zodIssuesToProblemErrors } from './problem';

const full = {
  idp_organization_id: 'org_2abc',
  auth_type: 'api_key',
  email: 'ada@example.com',
  idp_user_id: 'user_2xyz',
  account_id: 'acc_1',
  user_id: 'usr_1',
  session_id: 'sess_1',
  role: 'admin',
  expires_at: '2026-12-22T10:00:00.000Z',
  api_key_id: 'key_01JD0000000000000000000000',
  api_key_name: 'CI deploys',
  api_key_obfuscated_value: 'sk_…a1b2',
  account_type: 'team',
  permissions: ['config:read', 'config:write'],
};

const refusedPaths = (input: unknown) => {
  const result = authStatusSchema.safeParse(input);
  return result.success ? [] : zodIssuesToProblemErrors(result.error.issues).map((e) => e.path);
};

describe('the auth status record', () => {
  it('needs only idp_organization_id', () => {
    expect(authStatusSchema.parse({ idp_organization_id: 'org_2abc' })).toEqual({
      idp_organization_id: 'org_2abc',
    });
  });

  it('parses every field of the record', () => {
    expect(authStatusSchema.parse(full)).toEqual(full);
  });

  it('keeps role and permissions open: a value this client does not know still parses', () => {
    const status = { ...full, role: 'owner', permissions: ['billing:read'], account_type: 'x' };
    expect(authStatusSchema.parse(status)).toEqual(status);
  });

  it('accepts an expiry with an offset, and ignores fields it does not know', () => {
    expect(
      authStatusSchema.parse({ ...full, expires_at: '2026-12-22T11:00:00+01:00', extra: 1 }),
    ).toEqual({ ...full, expires_at: '2026-12-22T11:00:00+01:00' });
  });

  it('refuses what breaks the table, at the field', () => {
    expect(refusedPaths({ email: 'a@b.c' })).toEqual(['/idp_organization_id']);
    expect(refusedPaths({ ...full, auth_type: 'session' })).toEqual(['/auth_type']);
    expect(refusedPaths({ ...full, expires_at: 'tomorrow' })).toEqual(['/expires_at']);
    expect(refusedPaths({ ...full, expires_at: '2026-12-22' })).toEqual(['/expires_at']);
    expect(refusedPaths({ ...full, permissions: 'config:read' })).toEqual(['/permissions']);
    expect(refusedPaths({ ...full, permissions: [1] })).toEqual(['/permissions/0']);
  });
});

describe('permissions and roles', () => {
  it('names nine permissions and three roles', () => {
    expect(permissionSchema.options).toEqual([
      'config:read',
      'config:write',
      'config:publish',
      'api_keys:manage',
      'audit:read',
      'members:manage',
      'client_keys:manage',
      'webhooks:manage',
      'policy:manage',
    ]);
    expect(roleSchema.options).toEqual(['admin', 'editor', 'viewer']);
  });

  it('gives admin all, editor read and write, viewer read', () => {
    expect(ROLE_PERMISSIONS.admin).toEqual(PERMISSIONS);
    expect(ROLE_PERMISSIONS.editor).toEqual(['config:read', 'config:write']);
    expect(ROLE_PERMISSIONS.viewer).toEqual(['config:read']);
    for (const role of ROLES) {
      for (const permission of ROLE_PERMISSIONS[role]) {
        expect(permissionSchema.parse(permission)).toBe(permission);
      }
    }
  });

  it('reads a permission from a status; none when the server did not say', () => {
    expect(hasPermission(full, 'config:write')).toBe(true);
    expect(hasPermission(full, 'config:publish')).toBe(false);
    expect(hasPermission({}, 'config:read')).toBe(false);
  });
});
