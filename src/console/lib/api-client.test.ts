import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { ApiKey } from '../../contract/api-keys';
import { problemOf } from '../../contract/problem';
import {
  handle,
  setupContractServer,
  unauthorized,
  type ContractReply,
} from '../testing/msw-contract';
import { connectForTest, TEST_BASE_URL, TEST_KEY } from '../testing/test-utils';
import {
  apiRequest,
  ApiProblem,
  authFailureOf,
  callApi,
  describeError,
  isNotOffered,
  NetworkError,
  NotConnectedError,
  ResponseParseError,
} from './api-client';
import { connectionStore } from './connection';
import { apiKeyEndpoints } from '../../contract/api-key-endpoints';
import { configEndpoints } from '../../contract/config-endpoints';
import { signInEndpoints } from '../../contract/sign-in-endpoints';
import { statusEndpoints } from '../../contract/status-endpoints';

const status = {
  idp_organization_id: 'org_1',
  email: 'ada@example.com',
  permissions: ['config:read' as const],
};

const server = setupContractServer();

/** Answers GET /auth/status with `respond`; returns the requests it saw. */
function authStatus(respond: () => ContractReply<'getAuthStatus'>): Request[] {
  const seen: Request[] = [];
  server.use(
    handle('getAuthStatus', ({ request }) => {
      seen.push(request);
      return respond();
    }),
  );
  return seen;
}

/**
 * Off the contract on purpose: what a proxy or another server might answer, which the
 * client must turn into typed errors.
 */
function offContract(path: string, respond: () => Response) {
  server.use(http.all(`${TEST_BASE_URL}${path}`, respond));
}

const apiKey: ApiKey = {
  id: 'key_1',
  name: 'CI',
  obfuscated_value: 'sk_…abcd',
  permissions: ['config:read'],
  created_at: '2026-11-20T10:00:00.000Z',
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
};

describe('the API client', () => {
  it('sends the key as a bearer token to the base URL and parses the response', async () => {
    connectForTest({ key: true });
    const seen = authStatus(() => ({ status: 200, body: status }));
    await expect(apiRequest(statusEndpoints.getAuthStatus)).resolves.toEqual(status);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe(`${TEST_BASE_URL}/auth/status`);
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.headers.get('Authorization')).toBe(`Bearer ${TEST_KEY}`);
  });

  it('in a session sends the console header and the cookie, never a key', async () => {
    connectForTest();
    const seen = authStatus(() => ({ status: 200, body: status }));
    await apiRequest(statusEndpoints.getAuthStatus);
    expect(seen[0]?.headers.get('Authorization')).toBeNull();
    expect(seen[0]?.headers.get('X-Requested-With')).toBe('console');
    expect(seen[0]?.credentials).toBe('same-origin');
  });

  it('a 401 in a working session holds the request until the same person is back, then sends it again', async () => {
    connectForTest({ person: 'usr_1' });
    let calls = 0;
    server.use(
      handle('listApiKeys', () =>
        ++calls === 1
          ? { problem: problemOf('session_expired', 'The session has expired') }
          : { status: 200, body: [apiKey] },
      ),
    );
    const pending = apiRequest(apiKeyEndpoints.listApiKeys);
    await vi.waitFor(() => expect(connectionStore.getSnapshot().interrupted).toBe('expired'));
    // Nothing is signed out: the page stays as it is while the person signs in again.
    expect(connectionStore.getSnapshot().connection).not.toBeNull();
    connectionStore.signIn({ baseUrl: TEST_BASE_URL, apiKey: null }, 'usr_1');
    await expect(pending).resolves.toEqual([apiKey]);
    expect(calls).toBe(2);
  });

  it('a request made while the session is interrupted waits without asking the server', async () => {
    connectForTest({ person: 'usr_1' });
    connectionStore.interrupt('revoked');
    const seen = authStatus(() => ({ status: 200, body: status }));
    const pending = apiRequest(statusEndpoints.getAuthStatus);
    await Promise.resolve();
    expect(seen).toHaveLength(0);
    connectionStore.signIn({ baseUrl: TEST_BASE_URL, apiKey: null }, 'usr_1');
    await expect(pending).resolves.toEqual(status);
  });

  it('a public endpoint needs no connection: signing in goes to this origin', async () => {
    connectionStore.signOut();
    const seen: Request[] = [];
    server.use(
      handle('getSignInOptions', ({ request }) => {
        seen.push(request);
        return { status: 200, body: { password: true, sso: false } };
      }),
    );
    await expect(
      apiRequest(signInEndpoints.getSignInOptions, { query: { email: 'ana@example.com' } }),
    ).resolves.toEqual({ password: true, sso: false });
    expect(seen[0]?.url).toBe(`${TEST_BASE_URL}/auth/options?email=ana%40example.com`);
  });

  it('lets the browser keep and revalidate what the server answers 304 to, and nothing else', async () => {
    connectForTest();
    const seen: Request[] = [];
    server.use(
      handle('getConfigSchema', ({ request }) => {
        seen.push(request);
        return { status: 200, body: {} };
      }),
      handle('getAuthStatus', ({ request }) => {
        seen.push(request);
        return { status: 200, body: status };
      }),
      handle('listConfigs', ({ request }) => {
        seen.push(request);
        return { status: 200, body: [] };
      }),
    );
    await callApi(configEndpoints.getConfigSchema);
    await callApi(statusEndpoints.getAuthStatus);
    await callApi(configEndpoints.listConfigs);
    expect(seen.map((request) => request.cache)).toEqual(['no-cache', 'no-store', 'no-store']);
  });

  it('builds paths with parameters, sends JSON bodies and returns headers', async () => {
    connectForTest();
    const seen: { request: Request; body: unknown; params: object }[] = [];
    server.use(
      handle('createApiKey', (request) => {
        seen.push(request);
        return { status: 201, body: { ...apiKey, secret: 'sk_new' } };
      }),
      handle('revokeApiKey', (request) => {
        seen.push(request);
        return {
          status: 200,
          body: { ...apiKey, revoked_at: '2026-11-21T10:00:00.000Z' },
          headers: { ETag: '"3"' },
        };
      }),
    );
    const created = await apiRequest(apiKeyEndpoints.createApiKey, { body: { name: 'CI' } });
    expect(created.secret).toBe('sk_new');
    expect(seen[0]?.request.headers.get('Content-Type')).toBe('application/json');
    expect(seen[0]?.body).toEqual({ name: 'CI' });

    const revoked = await callApi(apiKeyEndpoints.revokeApiKey, { params: { id: 'key/1' } });
    expect(seen[1]?.request.url).toBe(`${TEST_BASE_URL}/api-keys/key%2F1`);
    expect(seen[1]?.params).toEqual({ id: 'key/1' });
    expect(revoked.data.revoked_at).toBe('2026-11-21T10:00:00.000Z');
    expect(revoked.headers.get('ETag')).toBe('"3"');
  });

  it('turns a problem+json body into an ApiProblem with status, code, detail and errors', async () => {
    connectForTest();
    server.use(
      handle('createApiKey', () => ({
        problem: problemOf('invalid_request', 'name is empty', {
          errors: [{ path: '/name', message: 'Too small' }],
        }),
      })),
    );
    const error = await apiRequest(apiKeyEndpoints.createApiKey, { body: { name: 'x' } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiProblem);
    const problem = error as ApiProblem;
    expect(problem.status).toBe(400);
    expect(problem.code).toBe('invalid_request');
    expect(problem.detail).toBe('name is empty');
    expect(problem.errors).toEqual([{ path: '/name', message: 'Too small' }]);
    expect(problem.endpoint).toBe('createApiKey');
    expect(describeError(problem)).toBe('name is empty.');
  });

  it('keeps the status of a failure that is not a problem body', async () => {
    connectForTest();
    offContract(
      '/*',
      () => new Response('<h1>Not Found</h1>', { status: 404, statusText: 'Not Found' }),
    );
    const error = await apiRequest(apiKeyEndpoints.listApiKeys).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiProblem);
    expect((error as ApiProblem).status).toBe(404);
    expect((error as ApiProblem).detail).toBe('The server answered 404 Not Found.');
    // A 404 from an endpoint that is not core: not offered; from a core endpoint: not.
    expect(isNotOffered(error)).toBe(true);
    const seedError = await apiRequest(statusEndpoints.getAuthStatus).catch(
      (caught: unknown) => caught,
    );
    expect(isNotOffered(seedError)).toBe(false);
  });

  it('reads Retry-After on a 429', async () => {
    connectForTest();
    authStatus(() => ({
      problem: problemOf('rate_limited', 'Slow down'),
      headers: { 'Retry-After': '7' },
    }));
    const error = await apiRequest(statusEndpoints.getAuthStatus).catch(
      (caught: unknown) => caught,
    );
    expect((error as ApiProblem).retryAfterSeconds).toBe(7);
    expect(describeError(error)).toBe('Too many requests. Try again in 7 seconds.');
    // A 429 is not an authentication failure: the key stays.
    expect(connectionStore.getSnapshot().connection).not.toBeNull();
  });

  it.each([
    ['api_key_revoked', 'revoked'],
    ['api_key_expired', 'expired'],
    ['api_key_invalid', 'invalid'],
  ] as const)('a 401 %s clears the connection with the reason %s', async (code, failure) => {
    connectForTest({ key: true });
    server.use(handle('listApiKeys', () => unauthorized(code)));
    const error = await apiRequest(apiKeyEndpoints.listApiKeys).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiProblem);
    expect((error as ApiProblem).authFailure).toBe(failure);
    expect(connectionStore.getSnapshot()).toMatchObject({
      connection: null,
      signOutReason: { kind: 'unauthorized', failure },
    });
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });

  it('takes the reason of a 401 from its code, whatever the words say', async () => {
    connectForTest({ key: true });
    authStatus(() => unauthorized('api_key_invalid', 'The API key was revoked or expired'));
    const error = await apiRequest(statusEndpoints.getAuthStatus).catch(
      (caught: unknown) => caught,
    );
    expect((error as ApiProblem).authFailure).toBe('invalid');
    expect(authFailureOf('api_key_revoked')).toBe('revoked');
    expect(authFailureOf('api_key_expired')).toBe('expired');
    // No key sent, or a code this console does not know yet: the key is not valid.
    expect(authFailureOf('unauthenticated')).toBe('invalid');
    expect(authFailureOf('api_key_suspended')).toBe('invalid');
  });

  it('signs out as an invalid key on a 401 that is not a problem body', async () => {
    connectForTest({ key: true });
    offContract(
      '/auth/status',
      () =>
        new Response('', {
          status: 401,
          headers: {
            'WWW-Authenticate': 'Bearer error="invalid_token", error_description="key expired"',
          },
        }),
    );
    await expect(apiRequest(statusEndpoints.getAuthStatus)).rejects.toBeInstanceOf(ApiProblem);
    expect(connectionStore.getSnapshot().signOutReason).toEqual({
      kind: 'unauthorized',
      failure: 'invalid',
    });
  });

  it('leaves the stored connection alone when a key being checked gets a 401', async () => {
    connectForTest({ key: true });
    authStatus(() => unauthorized('api_key_invalid'));
    await expect(
      apiRequest(statusEndpoints.getAuthStatus, {
        connection: { baseUrl: TEST_BASE_URL, apiKey: 'sk_other' },
      }),
    ).rejects.toBeInstanceOf(ApiProblem);
    expect(connectionStore.getSnapshot().connection?.apiKey).toBe(TEST_KEY);
  });

  it('rejects a success response that does not match the contract', async () => {
    connectForTest();
    offContract('/auth/status', () => HttpResponse.json({ email: 'no organization' }));
    const error = await apiRequest(statusEndpoints.getAuthStatus).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ResponseParseError);
    expect((error as ResponseParseError).issues[0]?.path).toEqual(['idp_organization_id']);
    expect((error as ResponseParseError).message).not.toContain(TEST_KEY);
  });

  it('rejects a success response that is not JSON', async () => {
    connectForTest();
    offContract(
      '/auth/status',
      () => new Response('<!doctype html><title>Some page</title>', { status: 200 }),
    );
    await expect(apiRequest(statusEndpoints.getAuthStatus)).rejects.toBeInstanceOf(
      ResponseParseError,
    );
  });

  it('turns a failed fetch into a NetworkError that names the server, not the key', async () => {
    connectForTest();
    offContract('/auth/status', () => HttpResponse.error());
    const error = await apiRequest(statusEndpoints.getAuthStatus).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(describeError(error)).toBe(`The server could not be reached at ${TEST_BASE_URL}.`);
    expect(String(error)).not.toContain(TEST_KEY);
  });

  it('refuses to call without a connection', async () => {
    const seen = authStatus(() => ({ status: 200, body: status }));
    await expect(apiRequest(statusEndpoints.getAuthStatus)).rejects.toBeInstanceOf(
      NotConnectedError,
    );
    expect(seen).toHaveLength(0);
  });

  it('returns undefined for a 204 without reading a body', async () => {
    connectForTest();
    server.use(handle('deleteConfig', () => ({ status: 204 })));
    await expect(
      apiRequest(configEndpoints.deleteConfig, { params: { id: 'cfg_1' } }),
    ).resolves.toBeUndefined();
  });
});
