/**
 * Review before publishing through HTTP (docs/api.md): the account policy, the review state
 * of every config, review requests, reviews and the timeline, publishing (and start_ab_test
 * on a draft) held until the draft has its approvals, publish on approval, and every
 * refusal leaving the account as it was.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountPolicy, NewReview, ReviewRequest } from '../../contract/reviews';
import {
  accountSnapshot,
  CREATE_APP,
  edit,
  editOk,
  expectProblem,
  expectSuccess,
  manualClock,
  ok,
  send,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

const APP_YAML = `apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      theme: light
ab_tests: []
`;

let clock: ReturnType<typeof manualClock>;
let service: TestService;
/** The owner (owner@example.com): the author of the drafts below. */
let author: string;
/** Two other admins (config:publish): the reviewers. */
let reviewer: string;
let secondReviewer: string;
let editor: string;
let viewer: string;

beforeEach(async () => {
  clock = manualClock('2026-11-22T10:00:00.000Z');
  service = await startTestService({ clock: clock.clock, initialYaml: APP_YAML });
  author = service.adminKey;
  reviewer = await service.keyFor('admin');
  secondReviewer = await service.keyFor('admin');
  editor = await service.keyFor('editor');
  viewer = await service.keyFor('viewer');
});
afterEach(async () => {
  await service.close();
});

async function emailOf(key: string): Promise<string> {
  const status = await ok(service, key, 'getAuthStatus');
  if (!status.email) throw new Error('a key without an e-mail');
  return status.email;
}

async function setPolicy(policy: AccountPolicy) {
  return ok(service, author, 'setAccountPolicy', { payload: policy });
}

/** A new draft from the live config, made by `key`, a minute after the last step. */
async function newDraft(key = author, id = 'shop', extra: Record<string, unknown> = {}) {
  clock.advance(60_000);
  const made = await editOk(service, key, {
    operations: [CREATE_APP(id, extra)],
    summary: `Add ${id}`,
  });
  return made.id;
}

async function editDraft(key: string, id: string, appId = 'more') {
  clock.advance(60_000);
  return editOk(service, key, {
    operations: [CREATE_APP(appId)],
    config_id: id,
    summary: `Add ${appId}`,
  });
}

function requestReview(key: string, id: string, payload?: ReviewRequest) {
  clock.advance(60_000);
  return send(service, key, 'requestReview', {
    params: { id },
    ...(payload ? { payload } : {}),
  });
}

function review(key: string, id: string, payload: NewReview | Record<string, unknown>) {
  clock.advance(60_000);
  return send(service, key, 'addReview', { params: { id }, payload });
}

async function reviewOk(key: string, id: string, payload: NewReview) {
  return expectSuccess('addReview', await review(key, id, payload), 201);
}

function publish(key: string, id: string) {
  return send(service, key, 'publishConfig', { params: { id } });
}

async function stateOf(id: string) {
  return (await ok(service, author, 'getConfig', { params: { id } })).review;
}

describe('the account policy', () => {
  it('is no review by default, and an admin replaces it', async () => {
    const defaults = { approvals_required: 0, reset_approvals_on_edit: true };
    expect(await ok(service, viewer, 'getAccountPolicy')).toEqual(defaults);
    const policy = { approvals_required: 2, reset_approvals_on_edit: false };
    expect(await setPolicy(policy)).toEqual(policy);
    expect(await ok(service, viewer, 'getAccountPolicy')).toEqual(policy);
    // Another account keeps its own.
    const other = await service.otherAccount();
    expect(await ok(service, other.key, 'getAccountPolicy')).toEqual(defaults);
  });

  it('needs api_keys:manage to change, and refuses what is out of range', async () => {
    const policy = { approvals_required: 1, reset_approvals_on_edit: true };
    expectProblem(
      await send(service, editor, 'setAccountPolicy', { payload: policy }),
      403,
      'forbidden',
    );
    for (const payload of [
      { approvals_required: 6, reset_approvals_on_edit: true },
      { approvals_required: -1, reset_approvals_on_edit: true },
      { approvals_required: 1.5, reset_approvals_on_edit: true },
      { approvals_required: 1 },
      { ...policy, extra: true },
    ]) {
      expectProblem(
        await send(service, author, 'setAccountPolicy', { payload }),
        400,
        'invalid_request',
      );
    }
    expect(await ok(service, author, 'getAccountPolicy')).toEqual({
      approvals_required: 0,
      reset_approvals_on_edit: true,
    });
  });
});

describe('the review state in config records', () => {
  it('is in every record, list entry and edit result, with the policy’s approvals_required', async () => {
    await setPolicy({ approvals_required: 2, reset_approvals_on_edit: true });
    clock.advance(60_000);
    const made = await editOk(service, author, {
      operations: [CREATE_APP('shop')],
      summary: 'Add shop',
    });
    const none = { state: 'none', approvals: 0, approvals_required: 2 };
    expect(made.config.review).toEqual(none);
    expect(await stateOf(made.id)).toEqual(none);
    const listed = await ok(service, author, 'listConfigs');
    expect(listed.map((config) => config.review)).toEqual([none, none]);
    const live = await ok(service, author, 'getLiveConfig');
    expect(live.review).toEqual(none);
  });
});

describe('with the default policy', () => {
  it('publishes a draft without any review, as before', async () => {
    const id = await newDraft();
    const published = expectSuccess('publishConfig', await publish(author, id));
    expect(published.live).toBe(true);
  });

  it('publishes on approval when the draft asks for it', async () => {
    const id = await newDraft();
    expectSuccess('requestReview', await requestReview(author, id, { publish_on_approval: true }));
    const result = await reviewOk(reviewer, id, { verdict: 'approve' });
    expect(result.published_config_id).toBeDefined();
    expect((await ok(service, author, 'getLiveConfig')).id).toBe(result.published_config_id);
  });
});

describe('a review from request to publish', () => {
  beforeEach(async () => {
    await setPolicy({ approvals_required: 1, reset_approvals_on_edit: true });
  });

  it('refuses to publish without the approval, then publishes with it; all in the history', async () => {
    const id = await newDraft();
    const before = await accountSnapshot(service, author);
    const refused = expectProblem(await publish(author, id), 409, 'approval_required');
    expect(refused.detail).toContain('0 of 1 approval');
    expect(await accountSnapshot(service, author)).toEqual(before);

    const requested = expectSuccess(
      'requestReview',
      await requestReview(author, id, { note: 'Please look at the shop app' }),
    );
    expect(requested.review).toEqual({
      state: 'in_review',
      approvals: 0,
      approvals_required: 1,
      requested_by: 'owner@example.com',
      requested_at: '2026-11-22T10:02:00.000Z',
      publish_on_approval: false,
    });

    const approved = await reviewOk(reviewer, id, { verdict: 'approve', body: 'Looks right' });
    expect(approved.config_review).toMatchObject({ state: 'approved', approvals: 1 });
    expect(approved.published_config_id).toBeUndefined();
    expect(await stateOf(id)).toMatchObject({ state: 'approved', approvals: 1 });

    const published = expectSuccess('publishConfig', await publish(author, id));
    const history = await ok(service, author, 'getConfigHistory', {
      params: { id: published.id },
    });
    const reviewerEmail = await emailOf(reviewer);
    expect(
      history
        .filter((entry) => entry.config_id === id || entry.config_id === published.id)
        .map((entry) => [entry.action, entry.actor_email, entry.summary]),
    ).toEqual([
      ['publish', 'owner@example.com', 'Add shop'],
      ['approve', reviewerEmail, 'Looks right'],
      ['review_request', 'owner@example.com', 'Please look at the shop app'],
      ['edit', 'owner@example.com', 'Add shop'],
    ]);
  });

  it('never lets the draft’s author approve it, whoever asked for the review', async () => {
    const id = await newDraft(reviewer);
    expectSuccess('requestReview', await requestReview(author, id));
    const before = await accountSnapshot(service, author);
    const refused = expectProblem(
      await review(reviewer, id, { verdict: 'approve' }),
      403,
      'own_draft',
    );
    expect(refused.detail).toContain(await emailOf(reviewer));
    expect(await accountSnapshot(service, author)).toEqual(before);
    expect(await ok(service, author, 'listReviews', { params: { id } })).toEqual([]);
    // The author is whoever made the first edit: a later editor may approve.
    await editDraft(secondReviewer, id);
    await reviewOk(secondReviewer, id, { verdict: 'approve' });
    expect(await stateOf(id)).toMatchObject({ state: 'approved', approvals: 1 });
    expectSuccess('publishConfig', await publish(reviewer, id));
  });

  it('refuses approving twice, approving without a request, and approving a published config', async () => {
    const id = await newDraft();
    expectProblem(await review(reviewer, id, { verdict: 'approve' }), 409, 'review_not_requested');
    expectProblem(
      await review(reviewer, id, { verdict: 'request_changes', body: 'no' }),
      409,
      'review_not_requested',
    );
    expectSuccess('requestReview', await requestReview(author, id));
    await reviewOk(reviewer, id, { verdict: 'approve' });
    const before = await accountSnapshot(service, author);
    expectProblem(await review(reviewer, id, { verdict: 'approve' }), 409, 'already_approved');
    expect(await accountSnapshot(service, author)).toEqual(before);
    expect(await ok(service, author, 'listReviews', { params: { id } })).toHaveLength(1);

    const live = await ok(service, author, 'getLiveConfig');
    for (const verdict of ['approve', 'comment'] as const) {
      expectProblem(
        await review(reviewer, live.id, { verdict, body: 'on the live one' }),
        409,
        'conflict',
      );
    }
    expectProblem(await requestReview(author, live.id), 409, 'conflict');
    expect(await accountSnapshot(service, author)).toEqual(before);
  });

  it('answers 404 for another account’s draft, and saves nothing there', async () => {
    const id = await newDraft();
    expectSuccess('requestReview', await requestReview(author, id));
    const other = await service.otherAccount();
    for (const verdict of ['approve', 'comment'] as const) {
      expectProblem(await review(other.key, id, { verdict, body: 'x' }), 404, 'not_found');
    }
    expectProblem(await requestReview(other.key, id), 404, 'not_found');
    expectProblem(
      await send(service, other.key, 'listReviews', { params: { id } }),
      404,
      'not_found',
    );
    expect(await ok(service, author, 'listReviews', { params: { id } })).toEqual([]);
    expect(await stateOf(id)).toMatchObject({ state: 'in_review', approvals: 0 });
  });

  it('checks the body’s length and the line, and saves nothing it refuses', async () => {
    const id = await newDraft();
    const draft = await ok(service, author, 'getConfig', { params: { id } });
    const lines = draft.yaml.split('\n').length - 1;
    const tooLong = expectProblem(
      await review(viewer, id, { verdict: 'comment', body: 'x'.repeat(5_001) }),
      400,
      'invalid_request',
    );
    expect(tooLong.errors?.map((error) => error.path)).toEqual(['/body']);
    const noLine = expectProblem(
      await review(viewer, id, { verdict: 'comment', body: 'here', line: lines + 1 }),
      422,
      'line_not_found',
    );
    expect(noLine.detail).toContain(`${lines} lines`);
    for (const payload of [
      { verdict: 'comment', body: 'x', line: 0 },
      { verdict: 'comment' },
      { verdict: 'comment', body: '   ' },
      { verdict: 'praise', body: 'x' },
    ]) {
      expectProblem(await review(viewer, id, payload), 400, 'invalid_request');
    }
    expect(await ok(service, author, 'listReviews', { params: { id } })).toEqual([]);

    await reviewOk(viewer, id, { verdict: 'comment', body: 'x'.repeat(5_000) });
    await reviewOk(viewer, id, { verdict: 'comment', body: 'last line', line: lines });
    expect(await ok(service, author, 'listReviews', { params: { id } })).toHaveLength(2);
  });

  it('lets config:read comment and only config:publish give a verdict', async () => {
    const id = await newDraft();
    expectSuccess('requestReview', await requestReview(editor, id));
    await reviewOk(viewer, id, { verdict: 'comment', body: 'A question' });
    for (const key of [viewer, editor]) {
      for (const verdict of ['approve', 'request_changes'] as const) {
        expectProblem(await review(key, id, { verdict, body: 'x' }), 403, 'forbidden');
      }
    }
    expectProblem(await requestReview(viewer, id), 403, 'forbidden');
    expect(await stateOf(id)).toMatchObject({ state: 'in_review', approvals: 0 });
    // A comment is not a verdict: the state stays.
    expect(await ok(service, author, 'listReviews', { params: { id } })).toHaveLength(1);
  });

  it('keeps the timeline oldest first, each review with its revision and line', async () => {
    const id = await newDraft();
    expectSuccess('requestReview', await requestReview(author, id));
    await reviewOk(viewer, id, { verdict: 'comment', body: 'Why this name?', line: 2 });
    await reviewOk(reviewer, id, { verdict: 'request_changes', body: 'Rename it' });
    expect(await stateOf(id)).toMatchObject({ state: 'changes_requested' });
    await editDraft(author, id);
    expect(await stateOf(id)).toMatchObject({ state: 'in_review' });
    await reviewOk(reviewer, id, { verdict: 'approve' });
    const timeline = await ok(service, author, 'listReviews', { params: { id } });
    expect(timeline.map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        verdict: 'comment',
        body: 'Why this name?',
        line: 2,
        revision: 1,
        by: await emailOf(viewer),
        at: '2026-11-22T10:03:00.000Z',
      },
      {
        verdict: 'request_changes',
        body: 'Rename it',
        revision: 1,
        by: await emailOf(reviewer),
        at: '2026-11-22T10:04:00.000Z',
      },
      {
        verdict: 'approve',
        body: '',
        revision: 2,
        by: await emailOf(reviewer),
        at: '2026-11-22T10:06:00.000Z',
      },
    ]);
    expect(new Set(timeline.map((entry) => entry.id)).size).toBe(3);
    const history = await ok(service, author, 'getConfigHistory', { params: { id } });
    expect(history.map((entry) => entry.action)).toEqual([
      'approve',
      'edit',
      'request_changes',
      'review_request',
      'edit',
      'create',
    ]);
  });
});

describe('an edit after an approval', () => {
  it('sends the draft back to in_review with 0 approvals when the policy resets them', async () => {
    await setPolicy({ approvals_required: 1, reset_approvals_on_edit: true });
    const id = await newDraft();
    expectSuccess('requestReview', await requestReview(author, id));
    await reviewOk(reviewer, id, { verdict: 'approve' });
    const edited = await editDraft(author, id);
    expect(edited.config.review).toMatchObject({ state: 'in_review', approvals: 0 });
    expect(await stateOf(id)).toMatchObject({ state: 'in_review', approvals: 0 });
    const refused = expectProblem(await publish(author, id), 409, 'approval_required');
    expect(refused.detail).toContain('0 of 1 approval on revision 2');
    // Approving the new revision is not approving twice.
    await reviewOk(reviewer, id, { verdict: 'approve' });
    expectSuccess('publishConfig', await publish(author, id));
  });

  it('keeps the approvals when the policy does not reset them', async () => {
    await setPolicy({ approvals_required: 1, reset_approvals_on_edit: false });
    const id = await newDraft();
    expectSuccess('requestReview', await requestReview(author, id));
    await reviewOk(reviewer, id, { verdict: 'approve' });
    await editDraft(author, id);
    expect(await stateOf(id)).toMatchObject({ state: 'approved', approvals: 1 });
    expectProblem(await review(reviewer, id, { verdict: 'approve' }), 409, 'already_approved');
    expectSuccess('publishConfig', await publish(author, id));
  });
});

describe('publish on approval', () => {
  beforeEach(async () => {
    await setPolicy({ approvals_required: 2, reset_approvals_on_edit: true });
  });

  it('publishes on the last approval needed, in the approver’s name', async () => {
    const id = await newDraft();
    expectSuccess('requestReview', await requestReview(author, id, { publish_on_approval: true }));
    const first = await reviewOk(reviewer, id, { verdict: 'approve' });
    expect(first.published_config_id).toBeUndefined();
    expect(first.config_review).toMatchObject({ state: 'in_review', approvals: 1 });
    const refused = expectProblem(await publish(author, id), 409, 'approval_required');
    expect(refused.detail).toContain('1 of 2 approvals');

    const second = await reviewOk(secondReviewer, id, { verdict: 'approve' });
    expect(second.config_review).toMatchObject({ state: 'approved', approvals: 2 });
    const publishedId = second.published_config_id;
    if (!publishedId) throw new Error('the last approval did not publish');
    const live = await ok(service, author, 'getLiveConfig');
    expect(live).toMatchObject({ id: publishedId, base_config_id: id, label: 'Add shop' });
    expect(live.review).toEqual({ state: 'none', approvals: 0, approvals_required: 2 });
    expectProblem(await send(service, author, 'getConfig', { params: { id } }), 404, 'not_found');

    const history = await ok(service, author, 'getConfigHistory', { params: { id: publishedId } });
    expect(history.slice(0, 2).map((entry) => [entry.action, entry.actor_email])).toEqual([
      ['publish_on_approval', await emailOf(secondReviewer)],
      ['approve', await emailOf(secondReviewer)],
    ]);
    // The published config shows the reviews of the draft it came from.
    expect(await ok(service, author, 'listReviews', { params: { id: publishedId } })).toHaveLength(
      2,
    );
  });

  it('does not publish an invalid draft: it stays approved', async () => {
    const id = await newDraft(author, 'bad', { platform: 'desktop' });
    expectSuccess('requestReview', await requestReview(author, id, { publish_on_approval: true }));
    await reviewOk(reviewer, id, { verdict: 'approve' });
    const second = await reviewOk(secondReviewer, id, { verdict: 'approve' });
    expect(second.published_config_id).toBeUndefined();
    expect(await stateOf(id)).toMatchObject({ state: 'approved', approvals: 2 });
  });
});

describe('A/B test steps', () => {
  beforeEach(async () => {
    await setPolicy({ approvals_required: 1, reset_approvals_on_edit: true });
  });

  it('holds start_ab_test on a draft until it is approved; steps on the live config stay immediate', async () => {
    clock.advance(60_000);
    const draft = await editOk(service, author, {
      operations: [
        {
          create_ab_test: [
            {
              id: 'dark',
              app: 'checkout',
              variants: [
                { id: 'control', weight: 50 },
                { id: 'dark', weight: 50, settings: { theme: 'dark' } },
              ],
            },
          ],
        },
      ],
    });
    const start = { operations: [{ start_ab_test: [{ id: 'dark' }] }], config_id: draft.id };
    const before = await accountSnapshot(service, author);
    const refused = expectProblem(await edit(service, author, start), 409, 'approval_required');
    expect(refused.detail).toContain('0 of 1 approval');
    expect(await accountSnapshot(service, author)).toEqual(before);

    expectSuccess('requestReview', await requestReview(author, draft.id));
    await reviewOk(reviewer, draft.id, { verdict: 'approve' });
    const started = await editOk(service, author, start);
    expect(started.kind).toBe('published');

    // Ending the running test on the live config needs no review, nor does a rollback.
    const ended = await editOk(service, author, {
      operations: [{ end_ab_test: [{ id: 'dark' }] }],
    });
    expect(ended.kind).toBe('published');
    expectSuccess(
      'activateConfig',
      await send(service, author, 'activateConfig', { params: { id: started.id } }),
    );
  });
});

describe('the OpenAPI document', () => {
  it('describes the review endpoints, their schemas and the PUT of the policy', async () => {
    const document = (await ok(service, undefined, 'getOpenApiDocument')) as {
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.paths['/account/policy']?.put?.operationId).toBe('setAccountPolicy');
    expect(document.paths['/configs/{id}/reviews']?.post?.operationId).toBe('addReview');
    expect(document.paths['/configs/{id}/review-request']?.post?.operationId).toBe('requestReview');
    for (const schema of [
      'AccountPolicy',
      'ReviewState',
      'ReviewRequest',
      'NewReview',
      'Review',
      'ReviewList',
      'ReviewResult',
    ]) {
      expect(document.components.schemas, schema).toHaveProperty(schema);
    }
    expect(JSON.stringify(document.components.schemas.ConfigRecord)).toContain(
      '#/components/schemas/ReviewState',
    );
  });
});

describe('caching a draft under review', () => {
  it('revalidates a draft to the approvals a new policy requires', async () => {
    const id = await newDraft();
    const first = await send(service, author, 'getConfig', { params: { id } });
    expect(first.json()).toMatchObject({ review: { approvals_required: 0 } });
    await setPolicy({ approvals_required: 2, reset_approvals_on_edit: true });
    const after = await send(service, author, 'getConfig', {
      params: { id },
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ review: { approvals_required: 2 } });
  });

  it('revalidates to the new review state: the ETag changes with it, and If-Match still means the revision', async () => {
    await setPolicy({ approvals_required: 1, reset_approvals_on_edit: true });
    const id = await newDraft();
    const first = await send(service, author, 'getConfig', { params: { id } });
    const before = String(first.headers.etag);
    expect(first.json()).toMatchObject({ review: { state: 'none' } });

    expectSuccess('requestReview', await requestReview(author, id));
    const again = await send(service, author, 'getConfig', {
      params: { id },
      headers: { 'if-none-match': before },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ review: { state: 'in_review' } });
    const during = String(again.headers.etag);
    expect(during).not.toBe(before);
    expect(during).toMatch(/^"cfg_[^:]+:\d+\.[0-9a-z]+"$/);
    const unchanged = await send(service, author, 'getConfig', {
      params: { id },
      headers: { 'if-none-match': during },
    });
    expect(unchanged.statusCode).toBe(304);

    await reviewOk(reviewer, id, { verdict: 'approve' });
    const approved = await send(service, author, 'getConfig', {
      params: { id },
      headers: { 'if-none-match': during },
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ review: { state: 'approved' } });

    // The stamped ETag is an If-Match for an edit at that revision.
    const edited = await editOk(
      service,
      author,
      { config_id: id, operations: [CREATE_APP('later')], summary: 'Later' },
      { 'if-match': String(approved.headers.etag) },
    );
    expect(edited.revision).toBe(2);
  });
});
