import { describe, expect, it } from 'vitest';
import {
  API_KEY_MAX_EXPIRES_IN_DAYS,
  API_KEY_NAME_MAX_LENGTH,
  apiKeyListSchema,
  apiKeySchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
} from './api-keys';
import { zodIssuesToProblemErrors } from './problem';

const key = {
  id: 'key_01JD0000000000000000000000',
  name: 'CI deploys',
  obfuscated_value: 'sk_…a1b2',
  permissions: ['config:read', 'config:write'],
  created_at: '2026-11-22T10:00:00.000Z',
  last_used_at: null,
  expires_at: '2027-11-22T10:00:00.000Z',
  revoked_at: null,
};
const secret = `sk_${'A1b2'.repeat(10)}`;

const refusedPaths = (input: unknown) => {
  const result = createApiKeyRequestSchema.safeParse(input);
  return result.success ? [] : zodIssuesToProblemErrors(result.error.issues).map((e) => e.path);
};

describe('the API key record', () => {
  it('parses a key and a list of keys', () => {
    expect(apiKeySchema.parse(key)).toEqual(key);
    expect(apiKeyListSchema.parse([key, { ...key, revoked_at: key.created_at }])).toHaveLength(2);
  });

  it('has no place for the secret: a parsed record drops it', () => {
    expect(apiKeySchema.parse({ ...key, secret })).not.toHaveProperty('secret');
  });

  it('shows the secret in the created response only, with its prefix', () => {
    expect(createdApiKeySchema.parse({ ...key, secret })).toEqual({ ...key, secret });
    expect(createdApiKeySchema.safeParse(key).success).toBe(false);
    expect(createdApiKeySchema.safeParse({ ...key, secret: 'pk_x' }).success).toBe(false);
  });

  it('refuses a permission this server does not have', () => {
    expect(apiKeySchema.safeParse({ ...key, permissions: ['root'] }).success).toBe(false);
  });
});

describe('the create request', () => {
  it('needs only a name', () => {
    expect(createApiKeyRequestSchema.parse({ name: 'CI' })).toEqual({ name: 'CI' });
  });

  it(`takes a name of 1..${API_KEY_NAME_MAX_LENGTH} characters, trimmed`, () => {
    expect(createApiKeyRequestSchema.parse({ name: ' CI ' })).toEqual({ name: 'CI' });
    expect(refusedPaths({ name: 'x'.repeat(API_KEY_NAME_MAX_LENGTH) })).toEqual([]);
    expect(refusedPaths({ name: 'x'.repeat(API_KEY_NAME_MAX_LENGTH + 1) })).toEqual(['/name']);
    expect(refusedPaths({ name: '' })).toEqual(['/name']);
    expect(refusedPaths({ name: '   ' })).toEqual(['/name']);
    expect(refusedPaths({})).toEqual(['/name']);
  });

  it(`takes expires_in_days as a whole number 1..${API_KEY_MAX_EXPIRES_IN_DAYS}`, () => {
    expect(refusedPaths({ name: 'k', expires_in_days: 1 })).toEqual([]);
    expect(refusedPaths({ name: 'k', expires_in_days: API_KEY_MAX_EXPIRES_IN_DAYS })).toEqual([]);
    for (const days of [0, API_KEY_MAX_EXPIRES_IN_DAYS + 1, 1.5, '30', null]) {
      expect(refusedPaths({ name: 'k', expires_in_days: days })).toEqual(['/expires_in_days']);
    }
  });

  it('takes known permissions, each once, at least one', () => {
    expect(refusedPaths({ name: 'k', permissions: ['config:read', 'config:publish'] })).toEqual([]);
    expect(refusedPaths({ name: 'k', permissions: ['config:admin'] })).toEqual(['/permissions/0']);
    expect(refusedPaths({ name: 'k', permissions: ['config:read', 'config:read'] })).toEqual([
      '/permissions',
    ]);
    expect(refusedPaths({ name: 'k', permissions: [] })).toEqual(['/permissions']);
  });
});
