import { describe, expect, it } from 'vitest';
import type { ConfigEditRequest } from '../../contract/config-edit';
import { problemOf } from '../../contract/problem';
import { apiRequest, isNotOffered } from '../lib/api-client';
import { ConfigServer, summaryOf } from './config-server';
import {
  handle,
  notOffered,
  recordRequests,
  setupContractServer,
  takeFailures,
} from './msw-contract';
import { connectForTest, TEST_BASE_URL } from './test-utils';
import { apiKeyEndpoints } from '../../contract/api-key-endpoints';
import { configEndpoints } from '../../contract/config-endpoints';
import { statusEndpoints } from '../../contract/status-endpoints';

const server = setupContractServer();

const status = { idp_organization_id: 'org_1', email: 'ada@example.com' };
const live = new ConfigServer().get('cfg_live');

/** The messages of what the handlers threw (taken, so the test's end does not fail on them). */
function failures(): string[] {
  return takeFailures().map((failure) => failure.message);
}

describe('handlers built from the contract', () => {
  it('pass on what the contract allows, problems included', async () => {
    connectForTest();
    server.use(handle('getAuthStatus', () => ({ status: 200, body: status })));
    await expect(apiRequest(statusEndpoints.getAuthStatus)).resolves.toEqual(status);
    server.use(
      handle('getAuthStatus', () => ({ problem: problemOf('rate_limited', 'Slow down') })),
    );
    await expect(apiRequest(statusEndpoints.getAuthStatus)).rejects.toMatchObject({ status: 429 });
    expect(failures()).toEqual([]);
  });

  it('hand the resolver the decoded path parameters', async () => {
    connectForTest();
    let seen: unknown;
    server.use(
      handle('getConfig', ({ params }) => {
        seen = params;
        return { status: 200, body: live };
      }),
    );
    await expect(
      apiRequest(configEndpoints.getConfig, { params: { id: 'cfg/1' } }),
    ).resolves.toEqual(live);
    expect(seen).toEqual({ id: 'cfg/1' });
  });

  it('refuse a response body the endpoint does not send', async () => {
    connectForTest();
    server.use(
      handle('getAuthStatus', () => ({ status: 200, body: { email: 'no organization' } as never })),
      // A summary where the endpoint answers a whole record (no yaml, no report).
      handle('getConfig', () => ({ status: 200, body: summaryOf(live) as never })),
    );
    await expect(apiRequest(statusEndpoints.getAuthStatus)).rejects.toMatchObject({ status: 500 });
    await expect(
      apiRequest(configEndpoints.getConfig, { params: { id: 'x' } }),
    ).rejects.toMatchObject({
      status: 500,
    });
    expect(failures()).toEqual([
      expect.stringContaining('getAuthStatus: the 200 response breaks the contract'),
      expect.stringContaining('getConfig: the 200 response breaks the contract'),
    ]);
  });

  it('refuse a body on a response that has none', async () => {
    connectForTest();
    server.use(handle('deleteConfig', () => ({ status: 204, body: 'gone' as never })));
    await expect(
      apiRequest(configEndpoints.deleteConfig, { params: { id: 'x' } }),
    ).rejects.toMatchObject({
      status: 500,
    });
    expect(failures()).toEqual(['deleteConfig: a 204 has no body']);
  });

  it('refuse a status the endpoint does not answer', async () => {
    connectForTest();
    server.use(
      handle('listApiKeys', () => ({ problem: problemOf('precondition_failed', 'No') })),
      handle('getConfig', () => ({ status: 201 as never, body: live })),
    );
    await expect(apiRequest(apiKeyEndpoints.listApiKeys)).rejects.toMatchObject({ status: 500 });
    await expect(
      apiRequest(configEndpoints.getConfig, { params: { id: 'x' } }),
    ).rejects.toMatchObject({
      status: 500,
    });
    expect(failures()).toEqual([
      'listApiKeys answered 412, a status it does not list',
      'getConfig answered 201, a status it does not list',
    ]);
  });

  it('refuse a request body the endpoint does not take', async () => {
    connectForTest();
    server.use(
      handle('createApiKey', () => ({ problem: problemOf('conflict', 'no') })),
      handle('editConfig', () => ({ problem: problemOf('conflict', 'no') })),
    );
    // Client bugs the types would stop; the handlers must not accept them either.
    await expect(
      apiRequest(apiKeyEndpoints.createApiKey, {
        body: { name: 42 } as unknown as { name: string },
      }),
    ).rejects.toMatchObject({ status: 500 });
    await expect(
      apiRequest(configEndpoints.editConfig, {
        body: { operations: [] } as unknown as ConfigEditRequest,
      }),
    ).rejects.toMatchObject({ status: 500 });
    expect(failures()).toEqual([
      expect.stringContaining('createApiKey: the request body breaks the contract'),
      expect.stringContaining('editConfig: the request body breaks the contract'),
    ]);
  });

  it('refuse request headers the endpoint does not take (an If-Match naming no revision)', async () => {
    connectForTest();
    server.use(handle('editConfig', () => ({ problem: problemOf('conflict', 'no') })));
    await expect(
      apiRequest(configEndpoints.editConfig, {
        body: { operations: [{ delete_app: [{ id: 'x' }] }], summary: 's' },
        headers: { 'If-Match': 'W/"x"' },
      }),
    ).rejects.toMatchObject({ status: 500 });
    expect(failures()).toEqual([
      expect.stringContaining('editConfig: the headers breaks the contract'),
    ]);
  });

  it('refuse a request body that is not JSON', async () => {
    connectForTest();
    server.use(handle('createApiKey', () => ({ problem: problemOf('conflict', 'no') })));
    const response = await fetch(`${TEST_BASE_URL}/api-keys`, { method: 'POST', body: 'name' });
    expect(response.status).toBe(500);
    expect(failures()).toEqual(['createApiKey: the request body is not JSON']);
  });

  it('answer an endpoint that is not core as a server that does not offer it', async () => {
    connectForTest();
    server.use(notOffered('listApiKeys'));
    const error = await apiRequest(apiKeyEndpoints.listApiKeys).catch((caught: unknown) => caught);
    expect(isNotOffered(error)).toBe(true);
    expect(() => notOffered('getAuthStatus')).toThrow('a core endpoint');
  });

  it('fail the test on a request no handler takes', async () => {
    connectForTest();
    const seen = recordRequests(server);
    await expect(apiRequest(apiKeyEndpoints.listApiKeys)).rejects.toBeDefined();
    expect(seen).toHaveLength(1);
    expect(failures()).toEqual([`No handler for GET ${TEST_BASE_URL}/api-keys`]);
  });
});
