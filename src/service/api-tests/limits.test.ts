/**
 * The pointer and nesting limits: a JSON Pointer of at most 1,024 characters, values and
 * configs nested at most 32 levels. Each is tested at and just past its edge; what is past
 * it is a 400 problem naming the limit, nothing is saved, and nothing stored can fail to be
 * read, edited or written later.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, MAX_POINTER_LENGTH } from '../../contract/limits';
import type { Operation } from '../../contract/operations';
import {
  CREATE_APP,
  edit,
  editOk,
  errorPaths,
  expectProblem,
  ok,
  type EditBody,
} from '../testing/api';
import { fetchEndpoint, problemOf } from '../testing/http';
import { startTestService, type TestService } from '../testing/test-service';
import { nestedLists, nestedMaps } from '../../configs/testing/nested-values';

let service: TestService;
let admin: string;

beforeEach(async () => {
  service = await startTestService();
  admin = service.adminKey;
});

afterEach(async () => {
  await service.close();
});

/** Every config of the account with its revision: what a refused edit must leave alone. */
async function snapshot() {
  const configs = await ok(service, admin, 'listConfigs');
  return configs.map((config) => [config.id, config.revision, config.updated_at]);
}

async function draftWith(operations: Operation[]): Promise<string> {
  return (await editOk(service, admin, { operations, summary: 'Draft' })).id;
}

const setOn = (configId: string | undefined, path: string, value: unknown): EditBody => ({
  operations: [{ set: [{ path, value }] }],
  ...(configId ? { config_id: configId } : {}),
  summary: 'Set',
});

describe(`a JSON Pointer of at most ${MAX_POINTER_LENGTH} characters`, () => {
  it(`takes ${MAX_POINTER_LENGTH} characters and refuses ${MAX_POINTER_LENGTH + 1} with a 400 naming the limit`, async () => {
    const longest = `/${'k'.repeat(MAX_POINTER_LENGTH - 1)}`;
    const draft = await draftWith([CREATE_APP('a')]);
    const result = await editOk(service, admin, setOn(draft, longest, 1));
    expect(result.applied_paths).toEqual([longest]);

    const before = await snapshot();
    for (const operation of [
      { set: [{ path: `${longest}k`, value: 1 }] },
      { unset: [{ path: `${longest}k` }] },
    ]) {
      const problem = expectProblem(
        await edit(service, admin, { operations: [operation], config_id: draft, summary: 'Long' }),
        400,
        'invalid_request',
      );
      expect(problem.errors).toEqual([
        {
          path: `/operations/0/${Object.keys(operation)[0]}/0/path`,
          message: expect.stringContaining(String(MAX_POINTER_LENGTH)),
        },
      ]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a 100 KB pointer at once, while /health answers (over a real port)', async () => {
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const address = service.app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('not listening');
    const base = `http://127.0.0.1:${address.port}`;
    const before = await snapshot();

    const [refused, health] = await Promise.all([
      fetchEndpoint(base, admin, 'editConfig', {
        payload: setOn(undefined, '/a'.repeat(50_000), 1),
      }),
      fetchEndpoint(base, undefined, 'getHealth'),
    ]);
    const problem = problemOf(refused, 400);
    expect(problem.code).toBe('invalid_request');
    expect(problem.errors).toEqual([
      {
        path: '/operations/0/set/0/path',
        message: expect.stringContaining(String(MAX_POINTER_LENGTH)),
      },
    ]);
    expect(health.status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });
});

describe(`values nested at most ${MAX_NESTING_DEPTH} levels`, () => {
  it(`takes a value of ${MAX_NESTING_DEPTH} levels and refuses ${MAX_NESTING_DEPTH + 1} at its path, naming the limit`, async () => {
    // At "" the value is the whole config: as deep as the value itself.
    await editOk(service, admin, setOn(undefined, '', nestedLists(MAX_NESTING_DEPTH)));

    const before = await snapshot();
    const problem = expectProblem(
      await edit(service, admin, setOn(undefined, '', nestedLists(MAX_NESTING_DEPTH + 1))),
      400,
      'invalid_request',
    );
    expect(problem.errors).toEqual([
      {
        path: '/operations/0/set/0/value',
        message: expect.stringContaining(String(MAX_NESTING_DEPTH)),
      },
    ]);
    const inApp = expectProblem(
      await edit(service, admin, {
        operations: [CREATE_APP('a', { settings: { x: nestedMaps(MAX_NESTING_DEPTH) } })],
        summary: 'Deep settings',
      }),
      400,
    );
    expect(errorPaths(inApp)).toEqual(['/operations/0/create_app/0/settings']);
    expect(await snapshot()).toEqual(before);
  });

  it(`counts the pointer's levels too: a config nests at most ${MAX_NESTING_DEPTH} levels`, async () => {
    const draft = await draftWith([CREATE_APP('a')]);
    // The top mapping, a and b hold the value at /a/b/c: 3 levels before its own.
    const fits = nestedLists(MAX_NESTING_DEPTH - 3);
    await editOk(service, admin, setOn(draft, '/a/b/c', fits));

    const before = await snapshot();
    const problem = expectProblem(
      await edit(service, admin, setOn(draft, '/a/b/c', [fits])),
      400,
      'config.too_deep',
    );
    expect(problem.errors).toEqual([
      {
        path: '/operations/0/set/0/value',
        message: expect.stringContaining(String(MAX_NESTING_DEPTH)),
      },
    ]);
    // An app's settings sit 4 levels deep: a setting's value has 28 levels of room.
    const settings = (levels: number) => ({ settings: { x: nestedMaps(levels) } });
    await editOk(service, admin, {
      operations: [CREATE_APP('b', settings(MAX_NESTING_DEPTH - 4))],
      config_id: draft,
      summary: 'Fits',
    });
    const after = await snapshot();
    const inApp = expectProblem(
      await edit(service, admin, {
        operations: [CREATE_APP('c', settings(MAX_NESTING_DEPTH - 3))],
        config_id: draft,
        summary: 'Too deep',
      }),
      400,
      'config.too_deep',
    );
    expect(inApp.detail).toContain(String(MAX_NESTING_DEPTH));
    expect(before).not.toEqual(after);
    expect(await snapshot()).toEqual(after);
  });

  it('refuses 1,200 nested lists and 1,000 nested mappings with 400, on the live config and on a draft, saving nothing', async () => {
    const draft = await draftWith([CREATE_APP('a')]);
    const before = await snapshot();
    for (const value of [nestedLists(1_200), nestedMaps(1_000), nestedLists(1_000)]) {
      for (const configId of [undefined, draft]) {
        const problem = expectProblem(
          await edit(service, admin, setOn(configId, '/deep', value)),
          400,
        );
        expect(errorPaths(problem)).toEqual(['/operations/0/set/0/value']);
      }
    }
    expect(await snapshot()).toEqual(before);
    // The draft still takes edits, `unset` included.
    await editOk(service, admin, setOn(draft, '/shallow', 1));
    await editOk(service, admin, {
      operations: [{ unset: [{ path: '/shallow' }] }],
      config_id: draft,
      summary: 'Unset',
    });
  });
});

describe('a stored config too deep to read', () => {
  it('is refused with 409 when edited, never a 500, and nothing is written over it', async () => {
    // A row an earlier version could store: the live config holding 1,200 nested lists.
    const liveId = (await ok(service, admin, 'getLiveConfig')).id;
    const deep = `apps: []\ndeep: ${JSON.stringify(nestedLists(1_200))}\n`;
    // As a row written before compression holds its text.
    await service.rows(
      'UPDATE configs SET yaml = ?, yaml_packed = NULL WHERE id = ? RETURNING id',
      deep,
      liveId,
    );

    const before = await snapshot();
    for (const operation of [{ unset: [{ path: '/deep' }] }, CREATE_APP('a')]) {
      const problem = expectProblem(
        await edit(service, admin, { operations: [operation], summary: 'Edit' }),
        409,
        'config.unreadable',
      );
      expect(problem.detail).toContain(String(MAX_NESTING_DEPTH));
    }
    expect(await snapshot()).toEqual(before);
    expect((await ok(service, admin, 'getLiveConfig')).yaml).toBe(deep);
  });
});
