import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { problemOf } from '../../../../contract/problem';
import { ContractViolation, contractHandler, NOT_OFFERED } from './contract-handler';
import { summaryOf, ConfigStore } from './config-store';

const BASE = 'http://localhost/api/v1';
const store = new ConfigStore();
const live = store.get(store.liveId);

function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('handlers built from the contract', () => {
  it('serve an answer the contract allows, with the parsed request', async () => {
    let seen: unknown;
    const handler = contractHandler('getConfig', ({ params }) => {
      seen = params;
      return { status: 200, body: live };
    });
    const response = await getResponse([handler], new Request(`${BASE}/configs/cfg%2F1`));
    expect(response?.status).toBe(200);
    expect(await response?.json()).toEqual(live);
    expect(seen).toEqual({ id: 'cfg/1' });
  });

  it('refuse to answer with a body the contract does not allow', async () => {
    // A summary where the endpoint answers a whole record (no yaml, no report).
    const handler = contractHandler('getConfig', () => ({
      status: 200,
      body: summaryOf(live) as never,
    }));
    await expect(getResponse([handler], new Request(`${BASE}/configs/x`))).rejects.toThrow(
      ContractViolation,
    );
  });

  it('refuse a problem status the endpoint does not answer', async () => {
    const handler = contractHandler('getConfig', () => ({
      problem: problemOf('precondition_failed', 'no'),
    }));
    await expect(getResponse([handler], new Request(`${BASE}/configs/x`))).rejects.toThrow(
      /getConfig does not answer 412/,
    );
  });

  it('refuse a request the contract does not allow', async () => {
    const handler = contractHandler('editConfig', () => ({ problem: problemOf('conflict', 'no') }));
    // An edit without operations.
    await expect(getResponse([handler], post('/config/edit', { operations: [] }))).rejects.toThrow(
      /the request body breaks the contract/,
    );
    // An If-Match that names no revision.
    await expect(
      getResponse(
        [handler],
        post(
          '/config/edit',
          { operations: [{ delete_app: [{ id: 'x' }] }], summary: 's' },
          { 'If-Match': 'W/"x"' },
        ),
      ),
    ).rejects.toThrow(/the headers breaks the contract/);
  });

  it('answer "not offered" only for endpoints beyond the seed', async () => {
    const offered = await getResponse(
      [contractHandler('listConfigs', () => NOT_OFFERED)],
      new Request(`${BASE}/configs`),
    );
    expect(offered?.status).toBe(404);
    await expect(
      getResponse(
        [contractHandler('getAuthStatus', () => NOT_OFFERED)],
        new Request(`${BASE}/auth/status`),
      ),
    ).rejects.toThrow(/in the seed/);
  });
});
