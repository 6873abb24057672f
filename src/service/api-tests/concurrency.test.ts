/**
 * Concurrency (docs/reliability.md): 20 clients × 10 concurrent create_app
 * edits with distinct ids on one draft: all 200 apps present, the revision raised by exactly
 * 200, no 5xx. Conditional edits racing on one revision: exactly one wins. Both also over a
 * real port (HTTP parsing and sockets in the way, requests truly in flight together), not
 * only through `inject`.
 */
import { etagOf } from '../../contract/configs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configEditResultSchema } from '../../contract/config-edit';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../contract/problem';
import {
  CREATE_APP,
  dataOf,
  edit,
  editOk,
  expectProblem,
  expectSuccess,
  ok,
  okAllPages,
} from '../testing/api';
import { fetchEndpoint } from '../testing/http';
import { startTestService, type TestService } from '../testing/test-service';

const CLIENTS = 20;
const EDITS_PER_CLIENT = 10;

let service: TestService;

beforeEach(async () => {
  service = await startTestService();
});
afterEach(async () => {
  await service.close();
});

describe('concurrent edits of one draft', () => {
  it(`${CLIENTS} clients × ${EDITS_PER_CLIENT} create_app edits: every one lands, once`, async () => {
    const draft = await editOk(service, service.adminKey, {
      operations: [CREATE_APP('seed')],
      summary: 'The draft',
    });
    const keys = await Promise.all(Array.from({ length: CLIENTS }, () => service.keyFor('editor')));

    const responses = await Promise.all(
      keys.flatMap((key, client) =>
        Array.from({ length: EDITS_PER_CLIENT }, (_, n) =>
          edit(service, key, {
            operations: [CREATE_APP(`app-${client}-${n}`)],
            config_id: draft.id,
            summary: `Client ${client}, edit ${n}`,
          }),
        ),
      ),
    );

    const total = CLIENTS * EDITS_PER_CLIENT;
    expect(responses.filter((response) => response.statusCode >= 500)).toEqual([]);
    const results = responses.map((response) => expectSuccess('editConfig', response));
    expect(results.every((result) => result.id === draft.id && !result.created)).toBe(true);
    // Each edit saw its own revision: 2 .. 201, each once.
    const revisions = results.map((result) => result.revision ?? 0).sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: total }, (_, i) => i + 2));
    expect(responses.map((response) => response.headers.etag).sort()).toEqual(
      revisions.map((revision) => etagOf(draft.id, revision)).sort(),
    );

    const record = await ok(service, service.adminKey, 'getConfig', { params: { id: draft.id } });
    expect(record.revision).toBe(1 + total);
    const ids = (dataOf(record.yaml).apps ?? []).map((app) => app.id);
    expect(ids).toHaveLength(1 + total);
    expect(new Set(ids).size).toBe(1 + total);
    for (let client = 0; client < CLIENTS; client++) {
      for (let n = 0; n < EDITS_PER_CLIENT; n++) expect(ids).toContain(`app-${client}-${n}`);
    }
    expect(record.validation.valid).toBe(true);

    const history = await okAllPages(service, service.adminKey, 'getConfigHistory', {
      params: { id: draft.id },
    });
    const edits = history.filter((entry) => entry.config_id === draft.id);
    expect(edits.map((entry) => entry.revision)).toEqual(
      Array.from({ length: 1 + total }, (_, i) => 1 + total - i),
    );
  });

  it('lets exactly one of several edits with the same If-Match win', async () => {
    const draft = await editOk(service, service.adminKey, {
      operations: [CREATE_APP('seed')],
      summary: 'The draft',
    });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        edit(
          service,
          service.adminKey,
          { operations: [CREATE_APP(`racer-${n}`)], config_id: draft.id, summary: `Racer ${n}` },
          { 'if-match': '"1"' },
        ),
      ),
    );
    const winners = responses.filter((response) => response.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(expectSuccess('editConfig', winners[0] as (typeof responses)[number]).revision).toBe(2);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expectProblem(response, 412, 'precondition_failed');
    }
    const record = await ok(service, service.adminKey, 'getConfig', { params: { id: draft.id } });
    expect(record.revision).toBe(2);
    expect(
      (dataOf(record.yaml).apps ?? []).filter((app) => String(app.id).startsWith('racer-')),
    ).toHaveLength(1);
  });

  it('keeps one draft per edit when concurrent edits start from the live config', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        edit(service, service.adminKey, {
          operations: [CREATE_APP(`app-${n}`)],
          summary: `Draft ${n}`,
        }),
      ),
    );
    const results = responses.map((response) => expectSuccess('editConfig', response));
    expect(new Set(results.map((result) => result.id)).size).toBe(20);
    const drafts = await ok(service, service.adminKey, 'listConfigs', { query: { kind: 'draft' } });
    expect(drafts).toHaveLength(20);
    // Each holds its own app only: the cached live document was not shared between them.
    for (const [n, result] of results.entries()) {
      const record = await ok(service, service.adminKey, 'getConfig', {
        params: { id: result.id },
      });
      expect((dataOf(record.yaml).apps ?? []).map((app) => app.id)).toEqual([`app-${n}`]);
    }
  });
});

/** A response read over HTTP: status, headers we check, and the parsed body. */
interface HttpResult {
  readonly status: number;
  readonly etag: string | null;
  readonly contentType: string;
  readonly body: unknown;
}

async function listen(): Promise<string> {
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const address = service.app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}

async function postEdit(
  base: string,
  key: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const answer = await fetchEndpoint(base, key, 'editConfig', { payload: body, headers });
  return {
    status: answer.status,
    etag: answer.headers.get('etag'),
    contentType: answer.headers.get('content-type') ?? '',
    body: answer.body,
  };
}

describe('concurrent edits over a real port', () => {
  it(`${CLIENTS} clients × ${EDITS_PER_CLIENT} create_app edits in flight at once: all land, once`, async () => {
    const base = await listen();
    const draft = await editOk(service, service.adminKey, {
      operations: [CREATE_APP('seed')],
      summary: 'The draft',
    });
    const keys = await Promise.all(Array.from({ length: CLIENTS }, () => service.keyFor('editor')));
    const results = await Promise.all(
      keys.flatMap((key, client) =>
        Array.from({ length: EDITS_PER_CLIENT }, (_, n) =>
          postEdit(base, key, {
            operations: [CREATE_APP(`app-${client}-${n}`)],
            config_id: draft.id,
            summary: `Client ${client}, edit ${n}`,
          }),
        ),
      ),
    );

    const total = CLIENTS * EDITS_PER_CLIENT;
    expect(results.filter((result) => result.status >= 500)).toEqual([]);
    expect(results.map((result) => result.status)).toEqual(Array(total).fill(200));
    const revisions = results
      .map((result) => configEditResultSchema.parse(result.body).revision ?? 0)
      .sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: total }, (_, i) => i + 2));
    expect(results.map((result) => result.etag).sort()).toEqual(
      revisions.map((revision) => etagOf(draft.id, revision)).sort(),
    );

    const record = await ok(service, service.adminKey, 'getConfig', { params: { id: draft.id } });
    expect(record.revision).toBe(1 + total);
    const ids = (dataOf(record.yaml).apps ?? []).map((app) => String(app.id));
    expect(new Set(ids).size).toBe(1 + total);
    expect(ids).toHaveLength(1 + total);
    expect(ids.filter((id) => id.startsWith('app-'))).toHaveLength(total);
  });

  it('lets exactly one of 20 edits with the same If-Match win; the others get 412', async () => {
    const base = await listen();
    const draft = await editOk(service, service.adminKey, {
      operations: [CREATE_APP('seed')],
      summary: 'The draft',
    });
    // Move the draft on first, so the race is at a revision other than the first.
    const second = await editOk(
      service,
      service.adminKey,
      { operations: [CREATE_APP('second')], config_id: draft.id, summary: 'Second' },
      { 'if-match': '"1"' },
    );
    expect(second.etag).toBe(etagOf(draft.id, 2));
    const keys = await Promise.all(Array.from({ length: 4 }, () => service.keyFor('editor')));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        postEdit(
          base,
          keys[n % keys.length] as string,
          { operations: [CREATE_APP(`racer-${n}`)], config_id: draft.id, summary: `Racer ${n}` },
          { 'if-match': '"2"' },
        ),
      ),
    );

    const winners = results.filter((result) => result.status === 200);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.etag).toBe(etagOf(draft.id, 3));
    const losers = results.filter((result) => result.status !== 200);
    expect(losers).toHaveLength(19);
    for (const loser of losers) {
      expect(loser.status).toBe(412);
      expect(loser.contentType).toContain(PROBLEM_CONTENT_TYPE);
      expect(problemSchema.parse(loser.body).code).toBe('precondition_failed');
    }
    const record = await ok(service, service.adminKey, 'getConfig', { params: { id: draft.id } });
    expect(record.revision).toBe(3);
    const racers = (dataOf(record.yaml).apps ?? []).filter((app) =>
      String(app.id).startsWith('racer-'),
    );
    expect(racers).toHaveLength(1);
    const history = await okAllPages(service, service.adminKey, 'getConfigHistory', {
      params: { id: draft.id },
    });
    expect(history.filter((entry) => entry.config_id === draft.id)).toHaveLength(3);
  });
});
