/**
 * Promotion on both stores: staging's changes previewed against production, promoted as a
 * draft there whose history names the source, held by production's review policy, and once
 * published, production's promoted items equal staging's while its running test is kept.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_HEADER } from '../../contract/request-headers';
import {
  dataOf,
  editOk,
  expectProblem,
  expectSuccess,
  manualClock,
  ok,
  send,
  SHOP_YAML,
} from '../testing/api';
import { invitedPersonInSession, sendInSession } from '../testing/sessions';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;
let stagingId: string;
const inStaging = () => ({ [ACCOUNT_HEADER]: stagingId });

beforeEach(async () => {
  service = await startTestService({ clock: manualClock().clock, initialYaml: SHOP_YAML });
  const staging = await ok(service, service.adminKey, 'createAccount', {
    payload: { name: 'Staging', account_type: 'staging', copy_from: service.account.account_id },
  });
  stagingId = staging.id;
  // Staging tries a darker checkout, a new search app and a new test.
  const draft = await editOk(
    service,
    service.adminKey,
    {
      operations: [
        { update_app: [{ id: 'checkout', settings: { theme: 'dark' } }] },
        { create_app: [{ id: 'search', name: 'Search', platform: 'web' }] },
        {
          create_ab_test: [
            {
              id: 'search-box',
              app: 'search',
              variants: [
                { id: 'a', weight: 50 },
                { id: 'b', weight: 50 },
              ],
            },
          ],
        },
      ],
      summary: 'Try search',
    },
    inStaging(),
  );
  await ok(service, service.adminKey, 'publishConfig', {
    params: { id: draft.id },
    headers: inStaging(),
  });
});
afterEach(async () => {
  await service.close();
});

const between = () => ({ from_account: stagingId, to_account: service.account.account_id });

describe('POST /promotions/preview', () => {
  it('lists the differences item by item, the operations, and what cannot travel', async () => {
    const preview = await ok(service, service.adminKey, 'previewPromotion', {
      payload: between(),
    });
    expect(preview.to_config_id).toBe((await ok(service, service.adminKey, 'getLiveConfig')).id);
    expect(preview.differences).toEqual(
      expect.arrayContaining([
        { item: { app: 'checkout' }, path: '/settings/theme', source: 'dark', target: 'light' },
        expect.objectContaining({ item: { app: 'search' }, path: '', target: null }),
        expect.objectContaining({ item: { ab_test: 'search-box' }, path: '', target: null }),
      ]),
    );
    expect(preview.not_promotable).toEqual([]);
    // A chosen test whose app stays behind cannot travel, and says why.
    const alone = await ok(service, service.adminKey, 'previewPromotion', {
      payload: { ...between(), items: [{ ab_test: 'search-box' }] },
    });
    expect(alone.operations).toEqual([]);
    expect(alone.not_promotable[0]?.reason).toMatch(/search/);
  });
});

describe('POST /promotions', () => {
  it('makes a draft in the target naming the source, which its review policy then holds', async () => {
    await ok(service, service.adminKey, 'setAccountPolicy', {
      payload: { approvals_required: 1, reset_approvals_on_edit: true },
    });
    const stagingLive = await ok(service, service.adminKey, 'getLiveConfig', {
      headers: inStaging(),
    });
    const response = await send(service, service.adminKey, 'createPromotion', {
      payload: { ...between(), summary: 'Ship search' },
    });
    const draft = expectSuccess('createPromotion', response);
    expect(draft.kind).toBe('draft');
    const history = await ok(service, service.adminKey, 'getConfigHistory', {
      params: { id: draft.id },
    });
    expect(history[0]?.summary).toBe(
      `Ship search (promoted from Staging (${stagingId}): config ${stagingLive.id}, revision ${stagingLive.revision})`,
    );
    // Nothing went live: production's own review applies.
    expectProblem(
      await send(service, service.adminKey, 'publishConfig', { params: { id: draft.id } }),
      409,
      'approval_required',
    );
  });

  it("leaves production's chosen items equal to staging's once published, and its running test as it was", async () => {
    const before = dataOf((await ok(service, service.adminKey, 'getLiveConfig')).yaml);
    const draft = await ok(service, service.adminKey, 'createPromotion', {
      payload: { ...between(), items: [{ app: 'checkout' }, { app: 'search' }], summary: 'Apps' },
    });
    await ok(service, service.adminKey, 'publishConfig', { params: { id: draft.id } });
    const production = dataOf((await ok(service, service.adminKey, 'getLiveConfig')).yaml);
    const staging = dataOf(
      (await ok(service, service.adminKey, 'getLiveConfig', { headers: inStaging() })).yaml,
    );
    const app = (data: typeof production, id: string) => data.apps?.find((one) => one.id === id);
    expect(app(production, 'checkout')).toEqual(app(staging, 'checkout'));
    expect(app(production, 'search')).toEqual(app(staging, 'search'));
    // Not chosen: the new test stays in staging; the running one is untouched.
    expect(production.ab_tests).toEqual(before.ab_tests);
    // Promoted again, nothing is left to promote among those items.
    expectProblem(
      await send(service, service.adminKey, 'createPromotion', {
        payload: { ...between(), items: [{ app: 'checkout' }], summary: 'Again' },
      }),
      409,
      'conflict',
    );
  });

  it('needs a membership of the source, and a key promotes into its own account', async () => {
    const editor = await service.keyFor('editor');
    const refused = expectProblem(
      await send(service, editor, 'previewPromotion', { payload: between() }),
      400,
      'invalid_request',
    );
    expect(refused.detail).toBe(`You are not a member of an account ${stagingId}`);
    expect(refused.errors?.[0]?.path).toBe('/from_account');
    expectProblem(
      await send(service, service.adminKey, 'previewPromotion', {
        payload: { from_account: service.account.account_id, to_account: stagingId },
      }),
      403,
      'forbidden',
    );
    // The owner's key acting on staging promotes into staging.
    expectSuccess(
      'previewPromotion',
      await send(service, service.adminKey, 'previewPromotion', {
        payload: { from_account: service.account.account_id, to_account: stagingId },
        headers: inStaging(),
      }),
    );
    // A person in a session names the target in the body: one they are a member of.
    const cookie = await invitedPersonInSession(service, 'bo@acme.com');
    const notTarget = expectProblem(
      await sendInSession(service, cookie, 'previewPromotion', {
        payload: { from_account: service.account.account_id, to_account: stagingId },
      }),
      400,
      'invalid_request',
    );
    expect(notTarget.detail).toBe(`You are not a member of an account ${stagingId}`);
    expect(notTarget.errors?.[0]?.path).toBe('/to_account');
    expectProblem(
      await send(service, service.adminKey, 'previewPromotion', {
        payload: { from_account: stagingId, to_account: stagingId },
        headers: inStaging(),
      }),
      400,
      'invalid_request',
    );
  });
});
