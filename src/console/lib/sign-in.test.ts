import { describe, expect, it } from 'vitest';
import { problemOf } from '../../contract/problem';
import { statusEndpoints } from '../../contract/status-endpoints';
import { ApiProblem } from './api-client';
import { describeConnectFailure, describeSignOutReason } from './sign-in';

const BASE_URL = 'https://provisioning.example/api/v1';

/** A 401 with `code` whose words point elsewhere: the message must follow the code. */
function unauthorized(code: Parameters<typeof problemOf>[0]): ApiProblem {
  return new ApiProblem(
    statusEndpoints.getAuthStatus,
    problemOf(code, 'The API key was revoked or expired'),
  );
}

describe('why a key failed, in words', () => {
  it.each([
    ['api_key_invalid', 'That API key is not valid.', 'Your API key is not valid.'],
    ['api_key_revoked', 'That API key was revoked.', 'Your API key was revoked.'],
    ['api_key_expired', 'That API key has expired.', 'Your API key has expired.'],
    ['unauthenticated', 'That API key is not valid.', 'Your API key is not valid.'],
  ] as const)('says what %s means', (code, onConnect, onSignOut) => {
    const problem = unauthorized(code);
    expect(describeConnectFailure(problem, BASE_URL)).toBe(onConnect);
    const failure = problem.authFailure;
    expect(failure).toBeDefined();
    if (failure === undefined) return;
    expect(describeSignOutReason({ kind: 'unauthorized', failure })).toBe(
      `${onSignOut} Sign in again.`,
    );
  });
});
