/**
 * The endpoints beyond the two core ones (docs/api.md): health, the config list, live, one config with
 * its ETag, publish, activate (rollback), discard, history, the config schema and the
 * OpenAPI document.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configOfEtag } from '../../contract/configs';
import { ENDPOINT_NAMES, contract } from '../../contract/endpoints';
import { EMPTY_CONFIG_YAML } from '../domain/accounts';
import {
  CREATE_APP,
  dataOf,
  edit,
  editOk,
  expectProblem,
  expectSuccess,
  manualClock,
  ok,
  send,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let clock: ReturnType<typeof manualClock>;
let service: TestService;
let admin: string;

beforeEach(async () => {
  clock = manualClock('2026-11-22T10:00:00.000Z');
  service = await startTestService({ clock: clock.clock });
  admin = service.adminKey;
});
afterEach(async () => {
  await service.close();
});

/** A new draft from the live config, a minute after the last thing that happened. */
async function draft(id: string, summary = `Add ${id}`, extra: Record<string, unknown> = {}) {
  clock.advance(60_000);
  return editOk(service, admin, { operations: [CREATE_APP(id, extra)], summary });
}

describe('GET /health', () => {
  it('answers without a key', async () => {
    const response = await send(service, undefined, 'getHealth');
    expect(expectSuccess('getHealth', response)).toEqual({ status: 'ok' });
  });

  it('ignores a bad key', async () => {
    const response = await send(service, undefined, 'getHealth', {
      headers: { authorization: 'Bearer nope' },
    });
    expect(expectSuccess('getHealth', response)).toEqual({ status: 'ok' });
  });
});

describe('GET /configs', () => {
  it('lists the new account’s live config', async () => {
    const [only, ...rest] = await ok(service, admin, 'listConfigs');
    expect(rest).toEqual([]);
    expect(only).toEqual({
      id: service.account.live_config_id,
      kind: 'published',
      label: 'Initial config',
      revision: 1,
      live: true,
      valid: true,
      error_count: 0,
      warning_count: 0,
      base_config_id: null,
      created_at: '2026-11-22T10:00:00.000Z',
      updated_at: '2026-11-22T10:00:00.000Z',
      published_at: '2026-11-22T10:00:00.000Z',
      review: { state: 'none', approvals: 0, approvals_required: 0 },
    });
  });

  it('lists newest first and filters by kind', async () => {
    const a = await draft('a');
    const b = await draft('b', 'Bad b', { platform: 'desktop' });
    const c = await draft('c');
    clock.advance(60_000);
    const published = await ok(service, admin, 'publishConfig', {
      params: { id: c.id },
      payload: { summary: 'Release c' },
    });

    const all = await ok(service, admin, 'listConfigs');
    expect(all.map((config) => config.id)).toEqual([
      published.id,
      b.id,
      a.id,
      service.account.live_config_id,
    ]);
    expect(all.map((config) => config.live)).toEqual([true, false, false, false]);
    expect(all[1]).toMatchObject({
      kind: 'draft',
      label: 'Bad b',
      valid: false,
      error_count: 1,
      base_config_id: service.account.live_config_id,
    });
    expect(all[1]).not.toHaveProperty('published_at');
    expect(all[1]).not.toHaveProperty('yaml');

    const drafts = await ok(service, admin, 'listConfigs', { query: { kind: 'draft' } });
    expect(drafts.map((config) => config.id)).toEqual([b.id, a.id]);
    const publishedOnly = await ok(service, admin, 'listConfigs', {
      query: { kind: 'published' },
    });
    expect(publishedOnly.map((config) => config.id)).toEqual([
      published.id,
      service.account.live_config_id,
    ]);
  });

  it('refuses an unknown kind with 400', async () => {
    const problem = expectProblem(
      await send(service, admin, 'listConfigs', { query: { kind: 'archived' } }),
      400,
      'invalid_request',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual(['/kind']);
  });

  it('never lists another account’s configs', async () => {
    const other = await service.otherAccount();
    await draft('mine');
    const theirs = await ok(service, other.key, 'listConfigs');
    expect(theirs.map((config) => config.id)).toEqual([other.account.live_config_id]);
  });
});

describe('GET /configs/live and /configs/{id}', () => {
  it('gives the live config with its ETag', async () => {
    const response = await send(service, admin, 'getLiveConfig');
    const live = expectSuccess('getLiveConfig', response);
    expect(configOfEtag(String(response.headers.etag))).toEqual({
      id: service.account.live_config_id,
      revision: 1,
    });
    expect(live).toMatchObject({
      id: service.account.live_config_id,
      kind: 'published',
      live: true,
      revision: 1,
      yaml: EMPTY_CONFIG_YAML,
    });
    expect(live.validation).toEqual({
      valid: true,
      error_count: 0,
      warning_count: 0,
      issues: [],
      yaml: EMPTY_CONFIG_YAML,
      source: { type: 'published', name: 'Initial config' },
    });
  });

  it('gives one config with the ETag of its revision', async () => {
    const created = await draft('a');
    await editOk(service, admin, {
      operations: [CREATE_APP('b')],
      config_id: created.id,
      summary: 'And b',
    });
    const response = await send(service, admin, 'getConfig', { params: { id: created.id } });
    const config = expectSuccess('getConfig', response);
    expect(configOfEtag(String(response.headers.etag))).toEqual({ id: created.id, revision: 2 });
    expect(config).toMatchObject({
      id: created.id,
      kind: 'draft',
      revision: 2,
      live: false,
      base_config_id: service.account.live_config_id,
      created_at: '2026-11-22T10:01:00.000Z',
    });
    expect(config).not.toHaveProperty('published_at');
    expect(dataOf(config.yaml).apps?.map((app) => app.id)).toEqual(['a', 'b']);
    expect(config.validation.yaml).toBe(config.yaml);
  });

  it('answers 404 for an unknown id and for another account’s id', async () => {
    const other = await service.otherAccount();
    for (const id of ['cfg_NOPE', other.account.live_config_id]) {
      expectProblem(await send(service, admin, 'getConfig', { params: { id } }), 404, 'not_found');
      expectProblem(
        await send(service, admin, 'getConfigHistory', { params: { id } }),
        404,
        'not_found',
      );
    }
  });
});

describe('POST /configs/{id}/publish', () => {
  it('publishes a valid draft: a new published config, live, and the draft is gone', async () => {
    const created = await draft('a', 'Add a');
    clock.advance(60_000);
    const response = await send(service, admin, 'publishConfig', {
      params: { id: created.id },
      payload: { summary: 'Release 1' },
    });
    const published = expectSuccess('publishConfig', response);
    expect(configOfEtag(String(response.headers.etag))).toEqual({ id: published.id, revision: 1 });
    expect(published).toMatchObject({
      kind: 'published',
      label: 'Release 1',
      live: true,
      revision: 1,
      base_config_id: created.id,
      published_at: '2026-11-22T10:02:00.000Z',
    });
    expect(published.id).not.toBe(created.id);
    expect(published.yaml).toBe(created.validation.yaml);
    expect(published.validation.source).toEqual({ type: 'published', name: 'Release 1' });

    expect((await ok(service, admin, 'getLiveConfig')).id).toBe(published.id);
    const list = await ok(service, admin, 'listConfigs');
    expect(list.map((config) => config.id)).toEqual([published.id, service.account.live_config_id]);
    expectProblem(await send(service, admin, 'getConfig', { params: { id: created.id } }), 404);
    // A consumed draft cannot be published again.
    expectProblem(await send(service, admin, 'publishConfig', { params: { id: created.id } }), 404);
  });

  it('uses the draft’s label when no summary is given, with or without a body', async () => {
    const first = await draft('a', 'Add a');
    const withoutBody = await ok(service, admin, 'publishConfig', { params: { id: first.id } });
    expect(withoutBody.label).toBe('Add a');
    const second = await draft('b', 'Add b');
    const emptyBody = await ok(service, admin, 'publishConfig', {
      params: { id: second.id },
      payload: {},
    });
    expect(emptyBody.label).toBe('Add b');
  });

  it('refuses an invalid draft with 409 and the report, and keeps it', async () => {
    const bad = await draft('bad', 'Broken', { platform: 'desktop' });
    const before = await ok(service, admin, 'listConfigs');
    const problem = expectProblem(
      await send(service, admin, 'publishConfig', { params: { id: bad.id } }),
      409,
      'invalid_config',
    );
    expect(problem.validation).toMatchObject({ valid: false, error_count: 1 });
    expect(problem.validation?.issues[0]).toMatchObject({
      code: 'schema.enum',
      path: '/apps/0/platform',
    });
    expect(await ok(service, admin, 'listConfigs')).toEqual(before);
    expect((await ok(service, admin, 'getLiveConfig')).id).toBe(service.account.live_config_id);
  });

  it('refuses to publish a published config (409)', async () => {
    const problem = expectProblem(
      await send(service, admin, 'publishConfig', {
        params: { id: service.account.live_config_id },
      }),
      409,
      'conflict',
    );
    expect(problem.detail).toContain('already published');
    expect(await ok(service, admin, 'listConfigs')).toHaveLength(1);
  });

  it('refuses a bad body (400) and an unknown id (404)', async () => {
    const created = await draft('a');
    expectProblem(
      await send(service, admin, 'publishConfig', {
        params: { id: created.id },
        payload: { summary: 'x'.repeat(201) },
      }),
      400,
    );
    expectProblem(
      await send(service, admin, 'publishConfig', {
        params: { id: created.id },
        payload: [1],
      }),
      400,
    );
    expectProblem(await send(service, admin, 'publishConfig', { params: { id: 'cfg_NOPE' } }), 404);
    expect((await ok(service, admin, 'getConfig', { params: { id: created.id } })).kind).toBe(
      'draft',
    );
  });
});

describe('POST /configs/{id}/activate', () => {
  it('makes an earlier published config live again, and back', async () => {
    const release1 = await ok(service, admin, 'publishConfig', {
      params: { id: (await draft('a')).id },
    });
    const release2 = await ok(service, admin, 'publishConfig', {
      params: { id: (await draft('b')).id },
    });
    expect((await ok(service, admin, 'getLiveConfig')).id).toBe(release2.id);

    const response = await send(service, admin, 'activateConfig', {
      params: { id: release1.id },
    });
    const activated = expectSuccess('activateConfig', response);
    expect(configOfEtag(String(response.headers.etag))).toEqual({ id: release1.id, revision: 1 });
    expect(activated).toMatchObject({ id: release1.id, live: true, kind: 'published' });
    const live = await ok(service, admin, 'getLiveConfig');
    expect(live.id).toBe(release1.id);
    expect(dataOf(live.yaml).apps?.map((app) => app.id)).toEqual(['a']);
    const list = await ok(service, admin, 'listConfigs');
    expect(list.filter((config) => config.live).map((config) => config.id)).toEqual([release1.id]);

    // Back to the very first config.
    await ok(service, admin, 'activateConfig', { params: { id: service.account.live_config_id } });
    expect((await ok(service, admin, 'getLiveConfig')).yaml).toBe(EMPTY_CONFIG_YAML);
    // Edits now start from the live config.
    const next = await draft('c');
    expect(next.base_config_id).toBe(service.account.live_config_id);
  });

  it('refuses a draft (409) and an unknown id (404)', async () => {
    const created = await draft('a');
    expectProblem(
      await send(service, admin, 'activateConfig', { params: { id: created.id } }),
      409,
      'conflict',
    );
    expectProblem(
      await send(service, admin, 'activateConfig', { params: { id: 'cfg_NOPE' } }),
      404,
    );
    expect((await ok(service, admin, 'getLiveConfig')).id).toBe(service.account.live_config_id);
  });
});

describe('DELETE /configs/{id}', () => {
  it('discards a draft with 204', async () => {
    const created = await draft('a');
    const response = await send(service, admin, 'deleteConfig', { params: { id: created.id } });
    expectSuccess('deleteConfig', response, 204);
    expectProblem(await send(service, admin, 'getConfig', { params: { id: created.id } }), 404);
    expect((await ok(service, admin, 'listConfigs')).map((config) => config.id)).toEqual([
      service.account.live_config_id,
    ]);
    // Twice: it is gone.
    expectProblem(await send(service, admin, 'deleteConfig', { params: { id: created.id } }), 404);
  });

  it('refuses a published config (409) and another account’s draft (404)', async () => {
    expectProblem(
      await send(service, admin, 'deleteConfig', {
        params: { id: service.account.live_config_id },
      }),
      409,
      'conflict',
    );
    const other = await service.otherAccount();
    const theirs = await editOk(service, other.key, {
      operations: [CREATE_APP('x')],
      summary: 'Theirs',
    });
    expectProblem(
      await send(service, admin, 'deleteConfig', { params: { id: theirs.id } }),
      404,
      'not_found',
    );
    await ok(service, other.key, 'getConfig', { params: { id: theirs.id } });
    expect((await ok(service, admin, 'getLiveConfig')).id).toBe(service.account.live_config_id);
  });
});

describe('GET /configs/{id}/history', () => {
  it('lists the edits of a config’s line, newest first, with who did what', async () => {
    const editor = await service.keyFor('editor');
    clock.advance(60_000);
    const first = await editOk(service, editor, {
      operations: [CREATE_APP('a')],
      summary: 'Add a',
    });
    clock.advance(60_000);
    await editOk(service, admin, {
      operations: [{ update_app: [{ id: 'a', name: 'Renamed' }] }, CREATE_APP('b')],
      config_id: first.id,
      summary: 'Rename a, add b',
    });

    const history = await ok(service, admin, 'getConfigHistory', { params: { id: first.id } });
    expect(history).toEqual([
      {
        at: '2026-11-22T10:02:00.000Z',
        action: 'edit',
        config_id: first.id,
        revision: 2,
        summary: 'Rename a, add b',
        api_key_id: expect.stringMatching(/^key_/),
        api_key_name: 'Owner key',
        actor_email: 'owner@example.com',
        operations: [{ update_app: [{ id: 'a', name: 'Renamed' }] }, CREATE_APP('b')],
        applied_paths: ['/apps/0/name', '/apps/1'],
      },
      {
        at: '2026-11-22T10:01:00.000Z',
        action: 'edit',
        config_id: first.id,
        revision: 1,
        summary: 'Add a',
        api_key_id: expect.stringMatching(/^key_/),
        api_key_name: 'editor key',
        actor_email: expect.stringMatching(/^editor\d+@example\.com$/),
        operations: [CREATE_APP('a')],
        applied_paths: ['/apps/0'],
      },
      // The line of the config it was copied from.
      {
        at: '2026-11-22T10:00:00.000Z',
        action: 'create',
        config_id: service.account.live_config_id,
        revision: 1,
        summary: 'Initial config',
        operations: [],
        applied_paths: [],
      },
    ]);

    // Publishing continues the line.
    clock.advance(60_000);
    const published = await ok(service, admin, 'publishConfig', {
      params: { id: first.id },
      payload: { summary: 'Release' },
    });
    const after = await ok(service, admin, 'getConfigHistory', { params: { id: published.id } });
    expect(after.map((entry) => [entry.action, entry.config_id, entry.summary])).toEqual([
      ['publish', published.id, 'Release'],
      ['edit', first.id, 'Rename a, add b'],
      ['edit', first.id, 'Add a'],
      ['create', service.account.live_config_id, 'Initial config'],
    ]);
    expect(after[0]).toMatchObject({
      operations: [],
      applied_paths: [],
      api_key_name: 'Owner key',
    });

    // Activation is recorded on the activated config.
    await ok(service, admin, 'activateConfig', { params: { id: service.account.live_config_id } });
    const initial = await ok(service, admin, 'getConfigHistory', {
      params: { id: service.account.live_config_id },
    });
    expect(initial.map((entry) => entry.action)).toEqual(['activate', 'create']);
  });

  it('is readable by a viewer', async () => {
    const viewer = await service.keyFor('viewer');
    const history = await ok(service, viewer, 'getConfigHistory', {
      params: { id: service.account.live_config_id },
    });
    expect(history).toHaveLength(1);
  });
});

describe('GET /config/schema', () => {
  it('gives the JSON Schema of a config to any reader', async () => {
    const viewer = await service.keyFor('viewer');
    const schema = await ok(service, viewer, 'getConfigSchema');
    expect(String(schema.$schema)).toContain('2020-12');
    const properties = schema.properties as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(['apps', 'ab_tests']));
    expectProblem(await send(service, undefined, 'getConfigSchema'), 401);
  });
});

describe('GET /openapi.json', () => {
  it('is public, valid JSON, and documents every endpoint', async () => {
    const response = await send(service, undefined, 'getOpenApiDocument');
    const document = expectSuccess('getOpenApiDocument', response);
    expect(() => JSON.parse(response.body) as unknown).not.toThrow();
    expect(String(document.openapi)).toMatch(/^3\.1\./);
    expect(document.servers).toEqual([{ url: '/api/v1' }]);
    const paths = document.paths as Record<string, Record<string, unknown>>;
    for (const name of ENDPOINT_NAMES) {
      const { path, method } = contract[name];
      expect(paths[path], path).toBeDefined();
      expect(paths[path]?.[method.toLowerCase()], `${method} ${path}`).toBeDefined();
    }
  });
});

describe('conditional GETs: ETag, If-None-Match, 304', () => {
  const conditional = [
    ['getLiveConfig', {}],
    ['getConfigSchema', {}],
    ['getOpenApiDocument', {}],
  ] as const;

  it('answers 304 without a body to the ETag it gave, on each of the four GETs', async () => {
    const created = await draft('a');
    const cases = [...conditional, ['getConfig', { params: { id: created.id } }] as const];
    for (const [name, input] of cases) {
      const first = await send(service, admin, name, input);
      expect(first.statusCode, name).toBe(200);
      // Kept by the browser, never by a shared cache, and revalidated every time.
      expect(first.headers['cache-control'], name).toBe('private, no-cache');
      const etag = first.headers.etag;
      expect(etag, name).toMatch(/^"[^"]+"$/);
      const again = await send(service, admin, name, {
        ...input,
        headers: { 'if-none-match': String(etag) },
      });
      expect(again.statusCode, name).toBe(304);
      expect(again.body, name).toBe('');
      expect(again.headers.etag, name).toBe(etag);
      expect(again.headers['cache-control'], name).toBe('private, no-cache');
      // In a list, or weak (as a proxy that compressed it may send it back): still current.
      const listed = await send(service, admin, name, {
        ...input,
        headers: { 'if-none-match': `"other", W/${String(etag)}` },
      });
      expect(listed.statusCode, name).toBe(304);
      const stale = await send(service, admin, name, {
        ...input,
        headers: { 'if-none-match': '"cfg_other:1"' },
      });
      expect(stale.statusCode, name).toBe(200);
      expect(stale.body, name).toBe(first.body);
    }
  });

  it('gives the live config a new ETag when another config goes live at the same revision', async () => {
    const before = await send(service, admin, 'getLiveConfig');
    const created = await draft('a');
    await ok(service, admin, 'publishConfig', { params: { id: created.id } });
    const after = await send(service, admin, 'getLiveConfig', {
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    // Both are at revision 1: an ETag of the revision alone would have answered 304.
    expect(after.statusCode).toBe(200);
    expect(expectSuccess('getLiveConfig', after).revision).toBe(1);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('gives the config that was live a new ETag when another is activated', async () => {
    const release1 = await ok(service, admin, 'publishConfig', {
      params: { id: (await draft('a')).id },
    });
    const input = { params: { id: release1.id } };
    const before = await send(service, admin, 'getConfig', input);
    expect(expectSuccess('getConfig', before).live).toBe(true);
    await ok(service, admin, 'activateConfig', {
      params: { id: service.account.live_config_id },
    });
    // Same id, same revision: only the stamp of the record's other fields tells them apart.
    const after = await send(service, admin, 'getConfig', {
      ...input,
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(expectSuccess('getConfig', after).live).toBe(false);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('gives a config a new ETag when an edit changes it', async () => {
    const created = await draft('a');
    const input = { params: { id: created.id } };
    const before = await send(service, admin, 'getConfig', input);
    await editOk(service, admin, {
      operations: [CREATE_APP('b')],
      config_id: created.id,
      summary: 'And b',
    });
    const after = await send(service, admin, 'getConfig', {
      ...input,
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(configOfEtag(String(after.headers.etag))).toEqual({ id: created.id, revision: 2 });
  });

  it('checks the key before answering 304: no key, no answer', async () => {
    const first = await send(service, admin, 'getLiveConfig');
    expectProblem(
      await send(service, undefined, 'getLiveConfig', {
        headers: { 'if-none-match': String(first.headers.etag) },
      }),
      401,
      'unauthenticated',
    );
  });

  it('keeps no-store on the answers it does not revalidate', async () => {
    for (const name of ['listConfigs', 'getAuthStatus'] as const) {
      expect((await send(service, admin, name)).headers['cache-control'], name).toBe('no-store');
    }
    const edited = await edit(service, admin, { operations: [CREATE_APP('x')], summary: 's' });
    expect(edited.headers['cache-control']).toBe('no-store');
  });
});
