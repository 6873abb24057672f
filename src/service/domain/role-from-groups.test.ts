import { describe, expect, it } from 'vitest';
import { groupRolesFrom } from '../settings';
import { roleFromGroups } from './sso-identity';

describe('the role a person gets from their groups', () => {
  const map = { 'console-admins': 'admin', engineering: 'editor', support: 'viewer' } as const;

  it('is the strongest mapped group, whatever the order', () => {
    expect(roleFromGroups(['support', 'engineering'], map, 'viewer')).toBe('editor');
    expect(roleFromGroups(['console-admins', 'engineering'], map, 'refuse')).toBe('admin');
    expect(roleFromGroups(['engineering', 'console-admins'], map, 'refuse')).toBe('admin');
    expect(roleFromGroups(['support'], map, 'editor')).toBe('viewer');
  });

  it('is the default, which may refuse, when no group is mapped', () => {
    expect(roleFromGroups([], map, 'viewer')).toBe('viewer');
    expect(roleFromGroups(['marketing'], map, 'refuse')).toBe('refuse');
  });

  it("never takes a group named like one of Object's own properties for a role", () => {
    expect(roleFromGroups(['constructor'], {}, 'refuse')).toBe('refuse');
    expect(roleFromGroups(['toString', 'engineering'], map, 'viewer')).toBe('editor');
    expect(roleFromGroups(['__proto__'], map, 'refuse')).toBe('refuse');
  });

  it('reads a group map from the environment, a group named __proto__ included', () => {
    const roles = groupRolesFrom('__proto__=admin, constructor=editor');
    expect(Object.keys(roles)).toEqual(['__proto__', 'constructor']);
    expect(roleFromGroups(['__proto__'], roles, 'refuse')).toBe('admin');
    expect(roleFromGroups(['constructor'], roles, 'refuse')).toBe('editor');
    expect(groupRolesFrom(' ')).toEqual({});
    expect(() => groupRolesFrom('=admin')).toThrow(/"=admin" is not one/);
    expect(() => groupRolesFrom('admins')).toThrow(/"admins" is not one/);
  });
});
