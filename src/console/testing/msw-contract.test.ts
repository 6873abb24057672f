import { describe, expect, it } from 'vitest';
import { apiRequest, isNotOffered } from '../lib/api-client';
import { handle, notOffered, setupContractServer, takeDrifts } from './msw-contract';
import { connectForTest, jsonResponse, problemResponse } from './test-utils';

const server = setupContractServer();

const status = { idp_organization_id: 'org_1', email: 'ada@example.com' };

describe('handlers built from the contract', () => {
  it('pass on what the contract allows, problems included', async () => {
    connectForTest();
    server.use(handle('getAuthStatus', () => jsonResponse(status)));
    await expect(apiRequest('getAuthStatus')).resolves.toEqual(status);
    server.use(handle('getAuthStatus', () => problemResponse('rate_limited', 'Slow down')));
    await expect(apiRequest('getAuthStatus')).rejects.toMatchObject({ status: 429 });
    expect(takeDrifts()).toEqual([]);
  });

  it('refuse a response body the endpoint does not send', async () => {
    connectForTest();
    server.use(handle('getAuthStatus', () => jsonResponse({ email: 'no organization' })));
    await expect(apiRequest('getAuthStatus')).rejects.toMatchObject({ status: 500 });
    expect(takeDrifts().map((drift) => drift.message)).toEqual([
      expect.stringContaining('getAuthStatus answered 200'),
    ]);
  });

  it('refuse a status the endpoint does not answer', async () => {
    connectForTest();
    server.use(handle('listApiKeys', () => problemResponse('precondition_failed', 'No')));
    await expect(apiRequest('listApiKeys')).rejects.toMatchObject({ status: 500 });
    expect(takeDrifts().map((drift) => drift.message)).toEqual([
      expect.stringContaining('a status the contract does not list'),
    ]);
  });

  it('refuse a request body the endpoint does not take', async () => {
    connectForTest();
    server.use(handle('createApiKey', () => jsonResponse({}, 201)));
    // A client bug the types would stop; the handler must not accept it either.
    await expect(
      apiRequest('createApiKey', { body: { name: 42 } as unknown as { name: string } }),
    ).rejects.toMatchObject({ status: 500 });
    expect(takeDrifts().map((drift) => drift.message)).toEqual([
      expect.stringContaining('the createApiKey request'),
    ]);
  });

  it('answer an endpoint beyond the seed as a server that does not offer it', async () => {
    connectForTest();
    server.use(notOffered('listApiKeys'));
    const error = await apiRequest('listApiKeys').catch((caught: unknown) => caught);
    expect(isNotOffered(error)).toBe(true);
    expect(() => notOffered('getAuthStatus')).toThrow('in the seed');
  });
});
