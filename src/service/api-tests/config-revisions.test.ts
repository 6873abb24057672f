/**
 * GET /configs/{id}/revisions/{revision}: the text a config had at each of its revisions,
 * rebuilt for a draft's older ones (comments and quoting included, as typed), 404 past the
 * config's revision or in another account, 409 once an edit up to it has left the history.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operations as op } from '../../contract/operations';
import { textChangesBetween } from '../../configs/text-edit';
import { SHOP_YAML, editOk, expectProblem, ok, send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;

beforeEach(async () => {
  service = await startTestService({ initialYaml: SHOP_YAML });
});
afterEach(async () => {
  await service.close();
});

async function textOf(id: string): Promise<string> {
  return (await ok(service, service.adminKey, 'getConfig', { params: { id } })).yaml;
}

function revisionOf(id: string, revision: string) {
  return send(service, service.adminKey, 'getConfigRevision', { params: { id, revision } });
}

describe('GET /configs/{id}/revisions/{revision}', () => {
  it("gives each revision's text of a draft, byte for byte, typed text included", async () => {
    const first = await editOk(service, service.adminKey, {
      operations: [{ update_app: [{ id: 'checkout', name: 'Checkout 2' }] }],
      summary: 'Rename',
    });
    const draftId = first.id;
    const copied = await textOf(draftId);
    const texts = [copied];
    const typed = copied.replace('# Apps this account provisions.', "# Ours.\n# 'Quoted'");
    await editOk(service, service.adminKey, {
      config_id: draftId,
      operations: [op.editText(...textChangesBetween(copied, typed))],
      summary: 'Comments',
    });
    texts.push(await textOf(draftId));
    expect(texts[1]).toBe(typed);
    await editOk(service, service.adminKey, {
      config_id: draftId,
      operations: [{ set: [{ path: '/apps/1/name', value: 'Shop "iOS"' }] }],
      summary: 'Quotes',
    });
    texts.push(await textOf(draftId));

    for (const [index, yaml] of texts.entries()) {
      const revision = index + 1;
      const response = await revisionOf(draftId, String(revision));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ id: draftId, revision, yaml });
    }
  });

  it('gives a published config its one revision', async () => {
    const live = await ok(service, service.adminKey, 'getLiveConfig');
    expect(
      await ok(service, service.adminKey, 'getConfigRevision', {
        params: { id: live.id, revision: '1' },
      }),
    ).toEqual({ id: live.id, revision: 1, yaml: SHOP_YAML });
    expectProblem(await revisionOf(live.id, '2'), 404, 'not_found');
  });

  it('answers 404 for another account and 400 for a revision that is not a whole number from 1', async () => {
    const live = await ok(service, service.adminKey, 'getLiveConfig');
    const other = await service.otherAccount();
    expectProblem(
      await send(service, other.key, 'getConfigRevision', {
        params: { id: live.id, revision: '1' },
      }),
      404,
      'not_found',
    );
    for (const revision of ['0', 'x', '1.5', '-1']) {
      expectProblem(await revisionOf(live.id, revision), 400, 'invalid_request');
    }
  });

  it('answers 409 once an edit up to the revision is no longer in the history', async () => {
    const first = await editOk(service, service.adminKey, {
      operations: [{ update_app: [{ id: 'checkout', name: 'One' }] }],
      summary: 'One',
    });
    await editOk(service, service.adminKey, {
      config_id: first.id,
      operations: [{ update_app: [{ id: 'checkout', name: 'Two' }] }],
      summary: 'Two',
    });
    await service.rows(
      'DELETE FROM history WHERE config_id = ? AND revision = 1 RETURNING revision',
      first.id,
    );
    expectProblem(await revisionOf(first.id, '1'), 409, 'conflict');
    expect((await revisionOf(first.id, '2')).statusCode).toBe(200);
  });
});
