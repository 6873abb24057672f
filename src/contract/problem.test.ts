import { describe, expect, it } from 'vitest';
import { z } from './zod';
import {
  escapeJsonPointerToken,
  PROBLEM_CODES,
  PROBLEM_CONTENT_TYPE,
  problemOf,
  problemSchema,
  problemTypeUri,
  toJsonPointer,
  UNAUTHENTICATED_CODES,
  zodIssuesToProblemErrors,
} from './problem';

describe('problem details', () => {
  it('has the RFC 9457 media type', () => {
    expect(PROBLEM_CONTENT_TYPE).toBe('application/problem+json');
  });

  it('builds problems that parse, for every code', () => {
    for (const [code, { status, title }] of Object.entries(PROBLEM_CODES)) {
      const problem = problemOf(code as keyof typeof PROBLEM_CODES, 'what happened');
      expect(problemSchema.parse(problem)).toEqual({
        type: problemTypeUri(code),
        title,
        status,
        detail: 'what happened',
        code,
      });
    }
  });

  it('carries errors and a validation report', () => {
    const problem = problemOf('invalid_config', 'the draft is invalid', {
      errors: [{ path: '/operations/0', message: 'bad' }],
      validation: { valid: false, error_count: 1, warning_count: 0, issues: [] },
    });
    expect(problemSchema.parse(problem)).toEqual(problem);
    expect(problem.status).toBe(409);
  });

  it('refuses a body without code or with a 2xx status', () => {
    const problem = problemOf('not_found', 'no such config');
    const { code: _code, ...withoutCode } = problem;
    expect(problemSchema.safeParse(withoutCode).success).toBe(false);
    expect(problemSchema.safeParse({ ...problem, status: 200 }).success).toBe(false);
  });

  it('maps each code to the status docs/api.md lists for it', () => {
    const statuses = new Set(Object.values(PROBLEM_CODES).map((entry) => entry.status));
    expect([...statuses].sort()).toEqual([
      400, 401, 403, 404, 408, 409, 412, 413, 415, 422, 429, 431, 500, 503,
    ]);
  });

  it('tells a missing key from a key or session that is invalid, revoked or expired, all 401', () => {
    // A sign-in that fails is a 401 too, but it is the answer to signing in, not to a caller.
    const unauthenticated = Object.entries(PROBLEM_CODES)
      .filter(([code, entry]) => entry.status === 401 && code !== 'sign_in_failed')
      .map(([code]) => code);
    expect(unauthenticated.sort()).toEqual([...UNAUTHENTICATED_CODES].sort());
    expect(UNAUTHENTICATED_CODES).toEqual([
      'unauthenticated',
      'api_key_invalid',
      'api_key_revoked',
      'api_key_expired',
      'session_expired',
      'session_revoked',
    ]);
  });
});

describe('JSON Pointers (RFC 6901)', () => {
  it('escapes ~ as ~0 and / as ~1, ~ first', () => {
    expect(escapeJsonPointerToken('a/b')).toBe('a~1b');
    expect(escapeJsonPointerToken('c~d')).toBe('c~0d');
    expect(escapeJsonPointerToken('~1')).toBe('~01');
    expect(escapeJsonPointerToken('/~')).toBe('~1~0');
  });

  it('joins keys and indices; the empty path is the whole document', () => {
    expect(toJsonPointer([])).toBe('');
    expect(toJsonPointer(['operations', 2, 'create_app', 0, 'platform'])).toBe(
      '/operations/2/create_app/0/platform',
    );
    expect(toJsonPointer([''])).toBe('/');
  });
});

describe('zodIssuesToProblemErrors', () => {
  it('gives each issue its pointer and message', () => {
    const schema = z.object({ settings: z.record(z.string(), z.number()) });
    const result = schema.safeParse({ settings: { 'a/b': 'x', 'c~d': 1, '~1': 'y' } });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(zodIssuesToProblemErrors(result.error.issues)).toEqual([
      { path: '/settings/a~1b', message: expect.any(String) },
      { path: '/settings/~01', message: expect.any(String) },
    ]);
  });

  it('reports each unknown key at the key', () => {
    const result = z.strictObject({ a: z.number() }).safeParse({ a: 1, 'x/y': 1, z: 2 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(zodIssuesToProblemErrors(result.error.issues)).toEqual([
      { path: '/x~1y', message: 'unknown key "x/y"' },
      { path: '/z', message: 'unknown key "z"' },
    ]);
  });

  it('reports a wrong root as ""', () => {
    const result = z.object({}).safeParse('text');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(zodIssuesToProblemErrors(result.error.issues)).toEqual([
      { path: '', message: expect.any(String) },
    ]);
  });
});
