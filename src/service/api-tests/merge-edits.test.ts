/**
 * POST /config/edit with base_revision: an edit made on an older revision of a draft merges
 * with the edits since when it touches nothing they touched, and is refused with 409
 * edit_conflict (one entry per field, nothing saved) when it does. If-Match stays strict.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Operation } from '../../contract/operations';
import { MAX_MERGE_REVISIONS } from '../domain/config-edits';
import {
  CREATE_APP,
  SHOP_YAML,
  dataOf,
  edit,
  editOk,
  errorPaths,
  expectProblem,
  ok,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;
/** Two people editing one draft. */
let ana: string;
let ben: string;
/** The draft, at revision 1, as both of them first read it. */
let draftId: string;

beforeEach(async () => {
  service = await startTestService({ initialYaml: SHOP_YAML });
  ana = await service.keyFor('editor');
  ben = await service.keyFor('editor');
  const draft = await editOk(service, service.adminKey, {
    operations: [{ update_app: [{ id: 'checkout', enabled: true }] }],
    summary: 'Spring changes',
  });
  draftId = draft.id;
});
afterEach(async () => {
  await service.close();
});

const anaEmail = 'editor1@example.com';

/** Ana's edit, made on the draft's current revision. */
function anaEdits(...operations: Operation[]) {
  return editOk(service, ana, { config_id: draftId, operations, summary: "Ana's edit" });
}

/** Ben's edit, made on revision 1 of the draft. */
function benEdits(...operations: Operation[]) {
  return edit(service, ben, {
    config_id: draftId,
    operations,
    summary: "Ben's edit",
    base_revision: 1,
  });
}

async function draft() {
  const record = await ok(service, service.adminKey, 'getConfig', { params: { id: draftId } });
  return { revision: record.revision, yaml: record.yaml, data: dataOf(record.yaml) };
}

function appOf(data: ReturnType<typeof dataOf>, id: string) {
  return data.apps?.find((app) => app.id === id);
}

describe('an edit on an older revision that touches something else', () => {
  it('applies to the current revision and names the revisions it merged with', async () => {
    await anaEdits({ update_app: [{ id: 'checkout', name: 'Checkout 2' }] });
    await anaEdits({ update_app: [{ id: 'checkout', platform: 'ios' }] });
    const response = await benEdits({ update_app: [{ id: 'ios-app', name: 'iOS shop' }] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ merged_revisions: [2, 3], revision: 4 });
    expect(response.headers.etag).toBe(`"${draftId}:4"`);
    const { revision, data } = await draft();
    expect(revision).toBe(4);
    expect(appOf(data, 'checkout')).toMatchObject({ name: 'Checkout 2', platform: 'ios' });
    expect(appOf(data, 'ios-app')).toMatchObject({ name: 'iOS shop' });
  });

  it('keeps different settings keys of one app apart', async () => {
    await anaEdits({ update_app: [{ id: 'checkout', settings: { theme: 'dark' } }] });
    const response = await benEdits({
      set: [{ path: '/apps/0/settings/button_size', value: 'xl' }],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(appOf((await draft()).data, 'checkout')?.settings).toEqual({
      theme: 'dark',
      button_size: 'xl',
    });
  });

  it('merges two apps created with different ids', async () => {
    await anaEdits(CREATE_APP('android-app', { platform: 'android' }));
    const response = await benEdits(CREATE_APP('kiosk'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ merged_revisions: [2] });
    expect((await draft()).data.apps?.map((app) => app.id)).toEqual([
      'checkout',
      'ios-app',
      'android-app',
      'kiosk',
    ]);
  });

  it('merges when both set the same field to the same value', async () => {
    await anaEdits({ update_app: [{ id: 'checkout', name: 'Till' }] });
    const response = await benEdits({ update_app: [{ id: 'checkout', name: 'Till' }] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ merged_revisions: [2], revision: 3 });
  });

  it('moves a pointer into a list to where its item sits now', async () => {
    // Ben renames the second app by position; Ana removed the first app meanwhile.
    await anaEdits({ unset: [{ path: '/apps/0' }] });
    const response = await benEdits({ set: [{ path: '/apps/1/name', value: 'iOS shop' }] });
    expect(response.statusCode, response.body).toBe(200);
    expect((await draft()).data.apps).toEqual([
      expect.objectContaining({ id: 'ios-app', name: 'iOS shop' }),
    ]);
    // The history keeps the operation as applied, so that replaying it rebuilds revision 3.
    const [latest] = await ok(service, ben, 'getConfigHistory', { params: { id: draftId } });
    expect(latest?.operations).toEqual([{ set: [{ path: '/apps/0/name', value: 'iOS shop' }] }]);
    const later = await edit(service, ben, {
      config_id: draftId,
      operations: [{ update_app: [{ id: 'ios-app', name: 'Mine' }] }],
      summary: 'On revision 2',
      base_revision: 2,
    });
    expect(expectProblem(later, 409, 'edit_conflict').conflicts).toEqual([
      expect.objectContaining({ path: '/apps/0/name', base: 'Shop for iOS', theirs: 'iOS shop' }),
    ]);
  });

  it('applies as usual when the draft is still at base_revision', async () => {
    const response = await benEdits({ update_app: [{ id: 'ios-app', name: 'iOS shop' }] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ merged_revisions: [], revision: 2 });
  });
});

describe('an edit on an older revision that touches what a newer edit touched', () => {
  it('is refused with each conflicting field, and nothing is saved', async () => {
    const anas = await anaEdits({
      update_app: [{ id: 'checkout', name: 'Till', settings: { theme: 'dark' } }],
    });
    const before = await draft();
    const response = await benEdits({
      update_app: [{ id: 'checkout', name: 'Cashier', settings: { theme: 'blue', font: 'serif' } }],
    });
    const problem = expectProblem(response, 409, 'edit_conflict');
    const at = (await ok(service, ana, 'getConfigHistory', { params: { id: draftId } }))[0]?.at;
    expect(problem.conflicts).toEqual([
      {
        path: '/apps/0/name',
        base: 'Checkout',
        theirs: 'Till',
        mine: 'Cashier',
        revision: 2,
        by: anaEmail,
        at,
      },
      {
        path: '/apps/0/settings/theme',
        base: 'light',
        theirs: 'dark',
        mine: 'blue',
        revision: 2,
        by: anaEmail,
        at,
      },
    ]);
    expect(problem.detail).toContain('revision 2');
    expect(anas.revision).toBe(2);
    expect(await draft()).toEqual(before);
  });

  it('reports the last newer edit that changed the field', async () => {
    await anaEdits({ update_app: [{ id: 'checkout', name: 'Till' }] });
    await anaEdits({ update_app: [{ id: 'ios-app', name: 'iOS' }] });
    await anaEdits({ set: [{ path: '/apps/0/name', value: 'Till 2' }] });
    const problem = expectProblem(
      await benEdits({ update_app: [{ id: 'checkout', name: 'Cashier' }] }),
      409,
      'edit_conflict',
    );
    expect(problem.conflicts).toMatchObject([
      { path: '/apps/0/name', base: 'Checkout', theirs: 'Till 2', mine: 'Cashier', revision: 4 },
    ]);
  });

  it('refuses a change to an app another edit deleted', async () => {
    await anaEdits({ delete_app: [{ id: 'ios-app' }] });
    const before = await draft();
    const problem = expectProblem(
      await benEdits({ update_app: [{ id: 'ios-app', name: 'iOS shop' }] }),
      409,
      'edit_conflict',
    );
    // The app is gone now: the path is where it was at the base revision; `theirs` is absent.
    expect(problem.conflicts).toEqual([
      expect.objectContaining({ path: '/apps/1/name', base: 'Shop for iOS', mine: 'iOS shop' }),
    ]);
    expect(problem.conflicts?.[0]).not.toHaveProperty('theirs');
    expect(await draft()).toEqual(before);
  });

  it('refuses deleting an app another edit changed', async () => {
    await anaEdits({ update_app: [{ id: 'ios-app', name: 'iOS shop' }] });
    const problem = expectProblem(
      await benEdits({ delete_app: [{ id: 'ios-app' }] }),
      409,
      'edit_conflict',
    );
    expect(problem.conflicts).toEqual([
      expect.objectContaining({ path: '/apps/1/name', base: 'Shop for iOS', theirs: 'iOS shop' }),
    ]);
    expect(problem.conflicts?.[0]).not.toHaveProperty('mine');
  });

  it('refuses two apps created with the same id', async () => {
    await anaEdits(CREATE_APP('kiosk'));
    const problem = expectProblem(await benEdits(CREATE_APP('kiosk')), 409, 'edit_conflict');
    expect(problem.conflicts).toEqual([
      expect.objectContaining({
        path: '/apps/2',
        theirs: expect.objectContaining({ id: 'kiosk' }),
      }),
    ]);
  });

  it('refuses a pointer inside what another edit replaced', async () => {
    await anaEdits({ set: [{ path: '/notes', value: { owner: 'ana' } }] });
    const problem = expectProblem(
      await benEdits({ set: [{ path: '/notes/owner', value: 'ben' }] }),
      409,
      'edit_conflict',
    );
    expect(problem.conflicts).toEqual([
      expect.objectContaining({ path: '/notes/owner', theirs: 'ana', mine: 'ben' }),
    ]);
  });
});

describe('If-Match and base_revision', () => {
  it('If-Match stays strict: any newer revision is refused with 412', async () => {
    await anaEdits({ update_app: [{ id: 'checkout', name: 'Till' }] });
    const response = await edit(
      service,
      ben,
      {
        config_id: draftId,
        operations: [{ update_app: [{ id: 'ios-app', name: 'iOS shop' }] }],
        summary: 'Disjoint, but If-Match',
      },
      { 'if-match': `"${draftId}:1"` },
    );
    expectProblem(response, 412, 'precondition_failed');
  });

  it('refuses both in one request, naming the clash', async () => {
    const response = await edit(
      service,
      ben,
      {
        config_id: draftId,
        operations: [{ update_app: [{ id: 'ios-app', name: 'iOS shop' }] }],
        summary: 'Both',
        base_revision: 1,
      },
      { 'if-match': `"${draftId}:1"` },
    );
    const problem = expectProblem(response, 400, 'invalid_request');
    expect(errorPaths(problem)).toEqual(['/base_revision']);
    expect(problem.detail).toContain('If-Match');
  });
});

describe('base_revision values that cannot merge', () => {
  const rename = [{ update_app: [{ id: 'ios-app', name: 'iOS shop' }] }];

  async function deleteHistoryOf(revision: number) {
    const deleted = await service.rows(
      'DELETE FROM history WHERE config_id = ? AND revision = ? RETURNING revision',
      draftId,
      revision,
    );
    expect(deleted).toHaveLength(1);
  }

  it('refuses a revision below 1, or not a whole number, as a malformed request', async () => {
    for (const base_revision of [0, -1, 1.5]) {
      const response = await edit(service, ben, {
        config_id: draftId,
        operations: rename,
        summary: 'x',
        base_revision,
      });
      expect(errorPaths(expectProblem(response, 400, 'invalid_request'))).toEqual([
        '/base_revision',
      ]);
    }
  });

  it('refuses a revision the config has not reached', async () => {
    const response = await edit(service, ben, {
      config_id: draftId,
      operations: rename,
      summary: 'x',
      base_revision: 2,
    });
    const problem = expectProblem(response, 400, 'invalid_request');
    expect(problem.detail).toContain('is at revision 1');
  });

  it('treats a published config as always at its revision: an edit of it makes a draft', async () => {
    const live = service.account.live_config_id;
    const made = await editOk(service, ben, {
      config_id: live,
      operations: rename,
      summary: 'From live',
      base_revision: 1,
    });
    expect(made).toMatchObject({ created: true, merged_revisions: [], revision: 1 });
    const later = await edit(service, ben, {
      config_id: live,
      operations: rename,
      summary: 'From live',
      base_revision: 2,
    });
    expectProblem(later, 400, 'invalid_request');
  });

  it('refuses a base whose newer edits are no longer all kept', async () => {
    await anaEdits({ update_app: [{ id: 'checkout', name: 'Till' }] });
    await deleteHistoryOf(2);
    const before = await draft();
    const problem = expectProblem(await benEdits(...rename), 409, 'conflict');
    expect(problem.detail).toContain('no longer all kept');
    expect(await draft()).toEqual(before);
  });

  it('needs the edits up to the base only to rebuild it, for the values of a conflict', async () => {
    await anaEdits({ update_app: [{ id: 'checkout', name: 'Till' }] });
    await deleteHistoryOf(1);
    // Disjoint: judged on the newer edits alone.
    expect((await benEdits(...rename)).statusCode).toBe(200);
    const clash = await edit(service, ben, {
      config_id: draftId,
      operations: [{ update_app: [{ id: 'checkout', name: 'Cashier' }] }],
      summary: 'x',
      base_revision: 1,
    });
    expect(expectProblem(clash, 409, 'conflict').detail).toContain('no longer all kept');
  });

  it(`refuses a base more than ${MAX_MERGE_REVISIONS} revisions behind`, async () => {
    const rows = await service.rows<{ revision: number }>(
      'UPDATE configs SET revision = ? WHERE id = ? RETURNING revision',
      MAX_MERGE_REVISIONS + 2,
      draftId,
    );
    expect(rows).toEqual([{ revision: MAX_MERGE_REVISIONS + 2 }]);
    const problem = expectProblem(await benEdits(...rename), 409, 'conflict');
    expect(problem.detail).toContain(`${MAX_MERGE_REVISIONS + 1} revisions behind`);
    const atTheLimit = await edit(service, ben, {
      config_id: draftId,
      operations: rename,
      summary: 'x',
      base_revision: 2,
    });
    // Within reach, but the history lacks those revisions: refused for that reason instead.
    expect(expectProblem(atTheLimit, 409, 'conflict').detail).toContain('no longer all kept');
  });
});
