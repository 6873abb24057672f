/**
 * The webhook endpoints (docs/webhooks.md): endpoints with a secret shown once, refused URLs,
 * permissions and accounts, and the outbox: each change that goes live queues one delivery
 * per subscribed endpoint, in the change's own transaction, with the exact body sent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../contract/webhooks';
import {
  CREATE_APP,
  allPagesOf,
  editOk,
  errorPaths,
  expectProblem,
  expectSuccess,
  manualClock,
  ok,
  send,
  SHOP_YAML,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import { SECRET_PATTERN } from '../domain/webhooks';

const START = '2026-11-22T10:00:00.000Z';
const URL_A = 'https://hooks.example.com/a';
const URL_B = 'https://hooks.example.com/b';

let clock: ReturnType<typeof manualClock>;
let service: TestService;
let admin: string;

async function startWith(allowPrivate = false) {
  clock = manualClock(START);
  service = await startTestService({
    clock: clock.clock,
    initialYaml: SHOP_YAML,
    webhookUrlPolicy: { allowPrivate },
  });
  admin = service.adminKey;
}

afterEach(async () => {
  await service.close();
});

async function createWebhook(
  events: WebhookEvent[] = ['config.published', 'ab_test.changed'],
  url = URL_A,
  key = admin,
) {
  return ok(service, key, 'createWebhook', { payload: { url, events } });
}

interface DeliveryRow {
  id: string;
  event: string;
  payload: string;
  status: string;
}

/** The outbox rows of an endpoint, oldest first. */
async function outboxOf(webhookId: string): Promise<DeliveryRow[]> {
  return service.rows<DeliveryRow>(
    'SELECT id, event, payload, status FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq',
    webhookId,
  );
}

async function allDeliveries(): Promise<number> {
  const [row] = await service.rows<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM webhook_deliveries',
  );
  return Number(row?.n);
}

async function ownerBy() {
  const [key] = await ok(service, admin, 'listApiKeys');
  return { email: 'owner@example.com', api_key_id: key?.id, api_key_name: 'Owner key' };
}

/** A draft adding an app, published; the published config. */
async function publishNewDraft(appId = 'shop') {
  clock.advance(60_000);
  const draft = await editOk(service, admin, {
    operations: [CREATE_APP(appId)],
    summary: `Add ${appId}`,
  });
  clock.advance(60_000);
  return ok(service, admin, 'publishConfig', { params: { id: draft.id } });
}

describe('POST /webhooks', () => {
  beforeEach(() => startWith());

  it('returns the secret (whsec_ and 24 random bytes) in the 201 only, never again', async () => {
    const response = await send(service, admin, 'createWebhook', {
      payload: { url: URL_A, events: ['config.published'], description: 'Deploys' },
    });
    const created = expectSuccess('createWebhook', response, 201);
    expect(created).toEqual({
      id: expect.stringMatching(/^wh_[0-9A-Z]{26}$/),
      url: URL_A,
      events: ['config.published'],
      description: 'Deploys',
      created_at: START,
      secret: expect.stringMatching(SECRET_PATTERN),
    });
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    const again = await createWebhook(['config.published']);
    expect(again.secret).not.toBe(created.secret);

    const listed = await send(service, admin, 'listWebhooks');
    expect(listed.body).not.toContain(created.secret);
    const { secret, ...shown } = created;
    expect(secret).toBeDefined();
    expect(expectSuccess('listWebhooks', listed)).toContainEqual(shown);
    await ok(service, admin, 'sendTestWebhook', { params: { id: created.id } });
    const deliveries = await send(service, admin, 'listWebhookDeliveries', {
      params: { id: created.id },
    });
    expect(deliveries.body).not.toContain(created.secret);
    const [audit] = await service.rows<{ action: string; detail: string }>(
      'SELECT action, detail FROM audit_log WHERE target_id = ?',
      created.id,
    );
    expect(audit?.action).toBe('webhook.create');
    expect(audit?.detail).not.toContain(created.secret);
    // The URL may itself be a secret (a token in its path): the trail keeps its host.
    expect(JSON.parse(audit?.detail ?? '{}')).toEqual({
      url: 'https://hooks.example.com/…',
      events: ['config.published'],
    });
  });

  it.each([
    ['http://hooks.example.com/a', 'https:'],
    ['ftp://hooks.example.com/a', 'https:'],
    ['https://user:pass@hooks.example.com/a', 'user name or password'],
    ['https://10.0.0.7/hook', 'not a public address'],
    ['https://127.0.0.1/hook', 'not a public address'],
    ['https://[::1]/hook', 'not a public address'],
    ['https://localhost/hook', 'not a public address'],
    ['not a url', 'absolute URL'],
  ])('refuses %s with a 400 naming /url (%s), and saves nothing', async (url, reason) => {
    const problem = expectProblem(
      await send(service, admin, 'createWebhook', {
        payload: { url, events: ['config.published'] },
      }),
      400,
      'invalid_request',
    );
    expect(errorPaths(problem)).toEqual(['/url']);
    expect(problem.errors?.[0]?.message).toContain(reason);
    expect(problem.detail).toContain(reason);
    expect(await ok(service, admin, 'listWebhooks')).toEqual([]);
  });

  it.each([
    ['no events', { url: URL_A }, '/events'],
    ['an empty list of events', { url: URL_A, events: [] }, '/events'],
    ['an unknown event', { url: URL_A, events: ['config.deleted'] }, '/events/0'],
    ['the test event', { url: URL_A, events: ['webhook.test'] }, '/events/0'],
    ['an event twice', { url: URL_A, events: ['config.published', 'config.published'] }, '/events'],
    ['events as a string', { url: URL_A, events: 'config.published' }, '/events'],
    ['no url', { events: ['config.published'] }, '/url'],
    [
      'a URL over 2,048 characters',
      { url: `https://hooks.example.com/${'a'.repeat(2_048)}`, events: ['config.published'] },
      '/url',
    ],
    [
      'a description over 500 characters',
      { url: URL_A, events: ['config.published'], description: 'x'.repeat(501) },
      '/description',
    ],
  ])('refuses %s with a 400 naming its path, and saves nothing', async (_label, payload, path) => {
    const problem = expectProblem(
      await send(service, admin, 'createWebhook', { payload }),
      400,
      'invalid_request',
    );
    expect(errorPaths(problem)).toContain(path);
    expect(await ok(service, admin, 'listWebhooks')).toEqual([]);
  });
});

describe('WEBHOOKS_ALLOW_PRIVATE', () => {
  beforeEach(() => startWith(true));

  it('lets http: and private addresses in, but still never other schemes or credentials', async () => {
    for (const url of ['http://127.0.0.1:9999/hook', 'https://10.0.0.7/hook', 'http://[::1]/h']) {
      expect((await createWebhook(['config.published'], url)).url).toBe(url);
    }
    for (const url of ['ftp://127.0.0.1/h', 'http://u:p@127.0.0.1/h']) {
      expectProblem(
        await send(service, admin, 'createWebhook', {
          payload: { url, events: ['config.published'] },
        }),
        400,
        'invalid_request',
      );
    }
    expect(await ok(service, admin, 'listWebhooks')).toHaveLength(3);
  });
});

describe('GET and DELETE /webhooks', () => {
  beforeEach(() => startWith());

  it("lists the account's endpoints newest first, not another account's, not deleted ones", async () => {
    const first = await createWebhook(['config.published'], URL_A);
    clock.advance(1_000);
    const second = await createWebhook(['ab_test.changed'], URL_B);
    const other = await service.otherAccount();
    await createWebhook(['config.published'], URL_A, other.key);
    expect((await ok(service, admin, 'listWebhooks')).map((hook) => hook.id)).toEqual([
      second.id,
      first.id,
    ]);
    const response = await send(service, admin, 'deleteWebhook', { params: { id: first.id } });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await ok(service, admin, 'listWebhooks')).map((hook) => hook.id)).toEqual([second.id]);
    expect(await ok(service, other.key, 'listWebhooks')).toHaveLength(1);
    const audit = await service.rows<{ action: string }>(
      'SELECT action FROM audit_log WHERE target_id = ? ORDER BY seq',
      first.id,
    );
    expect(audit.map((entry) => entry.action)).toEqual(['webhook.create', 'webhook.delete']);
    // Deleted once: a second delete finds nothing.
    expectProblem(
      await send(service, admin, 'deleteWebhook', { params: { id: first.id } }),
      404,
      'not_found',
    );
  });

  it("answers 404 for another account's endpoint on every route, and changes nothing", async () => {
    const other = await service.otherAccount();
    const theirs = await createWebhook(['config.published'], URL_A, other.key);
    const { id } = await ok(service, other.key, 'sendTestWebhook', { params: { id: theirs.id } });
    for (const response of [
      await send(service, admin, 'deleteWebhook', { params: { id: theirs.id } }),
      await send(service, admin, 'listWebhookDeliveries', { params: { id: theirs.id } }),
      await send(service, admin, 'sendTestWebhook', { params: { id: theirs.id } }),
      await send(service, admin, 'retryWebhookDelivery', {
        params: { id: theirs.id, delivery_id: id },
      }),
      await send(service, admin, 'deleteWebhook', { params: { id: 'wh_nope' } }),
    ]) {
      expectProblem(response, 404, 'not_found');
    }
    expect(await ok(service, other.key, 'listWebhooks')).toHaveLength(1);
    expect(await outboxOf(theirs.id)).toHaveLength(1);
  });

  it('fails the pending deliveries of a deleted endpoint ("endpoint deleted"); none are sent', async () => {
    const hook = await createWebhook(['config.published']);
    await publishNewDraft();
    await ok(service, admin, 'deleteWebhook', { params: { id: hook.id } });
    const rows = await service.rows<{ status: string; error: string; next_attempt_at: null }>(
      'SELECT status, error, next_attempt_at FROM webhook_deliveries WHERE webhook_id = ?',
      hook.id,
    );
    expect(rows).toEqual([{ status: 'failed', error: 'endpoint deleted', next_attempt_at: null }]);
    expect(await service.store.claimDueOutbox(clock.now().toISOString(), 10, 1_000)).toEqual([]);
    // And it gets no later events.
    await publishNewDraft('later');
    expect(await outboxOf(hook.id)).toHaveLength(1);
  });
});

describe('permissions', () => {
  beforeEach(() => startWith());

  it.each(['editor', 'viewer'] as const)(
    'a key of a %s (no webhooks:manage) gets 403 on every webhook endpoint',
    async (role) => {
      const key = await service.keyFor(role);
      const hook = await createWebhook();
      const { id } = await ok(service, admin, 'sendTestWebhook', { params: { id: hook.id } });
      for (const response of [
        await send(service, key, 'listWebhooks'),
        await send(service, key, 'createWebhook', {
          payload: { url: URL_B, events: ['config.published'] },
        }),
        await send(service, key, 'deleteWebhook', { params: { id: hook.id } }),
        await send(service, key, 'listWebhookDeliveries', { params: { id: hook.id } }),
        await send(service, key, 'sendTestWebhook', { params: { id: hook.id } }),
        await send(service, key, 'retryWebhookDelivery', {
          params: { id: hook.id, delivery_id: id },
        }),
      ]) {
        expect(expectProblem(response, 403, 'forbidden').detail).toContain('webhooks:manage');
      }
      expect(await ok(service, admin, 'listWebhooks')).toHaveLength(1);
      expect(await outboxOf(hook.id)).toHaveLength(1);
    },
  );
});

describe('the outbox', () => {
  beforeEach(() => startWith());

  it('queues config.published once per subscribed endpoint on a publish, with the exact body', async () => {
    const a = await createWebhook(['config.published']);
    const b = await createWebhook(['config.published', 'ab_test.changed'], URL_B);
    const abOnly = await createWebhook(['ab_test.changed'], URL_B);
    const published = await publishNewDraft();
    const body = {
      type: 'config.published',
      timestamp: published.published_at,
      data: {
        config: {
          id: published.id,
          label: 'Add shop',
          revision: 1,
          published_at: published.published_at,
        },
        action: 'publish',
        by: await ownerBy(),
      },
    };
    for (const hook of [a, b]) {
      const [row, ...rest] = await outboxOf(hook.id);
      expect(rest).toEqual([]);
      expect(row?.id).toMatch(/^msg_[0-9A-Z]{26}$/);
      expect(row?.status).toBe('pending');
      expect(row?.payload).toBe(JSON.stringify(body));
    }
    expect(await outboxOf(abOnly.id)).toEqual([]);
    const [listed] = await ok(service, admin, 'listWebhookDeliveries', { params: { id: a.id } });
    expect(listed).toEqual({
      id: expect.stringMatching(/^msg_/),
      event: 'config.published',
      status: 'pending',
      attempts: 0,
      created_at: published.published_at,
      last_attempt_at: null,
      next_attempt_at: published.published_at,
      response_status: null,
      error: null,
    });
  });

  it('queues config.published on activate, with action "activate" and the version activated', async () => {
    const hook = await createWebhook(['config.published']);
    const first = (await ok(service, admin, 'getLiveConfig')).id;
    await publishNewDraft();
    clock.advance(60_000);
    await ok(service, admin, 'activateConfig', { params: { id: first } });
    const rows = await outboxOf(hook.id);
    expect(rows).toHaveLength(2);
    const payload = JSON.parse(rows[1]?.payload ?? '{}') as Record<string, unknown>;
    expect(payload).toEqual({
      type: 'config.published',
      timestamp: clock.now().toISOString(),
      data: {
        config: { id: first, label: expect.any(String), revision: 1, published_at: START },
        action: 'activate',
        by: await ownerBy(),
      },
    });
  });

  it('queues config.published with action publish_on_approval when an approval publishes', async () => {
    const hook = await createWebhook(['config.published']);
    await ok(service, admin, 'setAccountPolicy', {
      payload: { approvals_required: 1, reset_approvals_on_edit: true },
    });
    const draft = await editOk(service, admin, { operations: [CREATE_APP('shop')], summary: 'S' });
    await ok(service, admin, 'requestReview', {
      params: { id: draft.id },
      payload: { publish_on_approval: true },
    });
    const reviewer = await service.keyFor('admin');
    const result = await ok(service, reviewer, 'addReview', {
      params: { id: draft.id },
      payload: { verdict: 'approve' },
    });
    const [row] = await outboxOf(hook.id);
    const payload = JSON.parse(row?.payload ?? '{}') as { data: Record<string, unknown> };
    expect(payload.data).toMatchObject({
      config: { id: result.published_config_id },
      action: 'publish_on_approval',
      by: { email: expect.stringMatching(/@example\.com$/) },
    });
    expect((payload.data.by as { email: string }).email).not.toBe('owner@example.com');
  });

  it('queues ab_test.changed for each step of a test, after config.published, in order', async () => {
    const all = await createWebhook(['config.published', 'ab_test.changed']);
    const abOnly = await createWebhook(['ab_test.changed'], URL_B);
    const by = await ownerBy();
    const steps: [Record<string, unknown>, string, string][] = [
      [{ start_ab_test: [{ id: 'onboarding' }] }, 'start', 'running'],
      [{ update_ab_test: [{ id: 'onboarding', description: 'Shorter' }] }, 'update', 'running'],
      [{ end_ab_test: [{ id: 'onboarding' }] }, 'end', 'ended'],
      [{ promote_ab_test: [{ id: 'onboarding', variant: 'b' }] }, 'promote', 'promoted'],
      [{ delete_ab_test: [{ id: 'onboarding' }] }, 'delete', 'deleted'],
    ];
    const liveIds: string[] = [];
    for (const [operation, step] of steps) {
      clock.advance(60_000);
      const result = await editOk(service, admin, {
        operations: [operation],
        summary: `Step ${step}`,
      });
      liveIds.push(result.id);
    }
    const changes = (await outboxOf(abOnly.id)).map(
      (row) => JSON.parse(row.payload) as { type: string; data: unknown },
    );
    expect(changes.map((change) => change.data)).toEqual(
      steps.map(([, step, status], index) => ({
        ab_test: { id: 'onboarding', app: 'ios-app', status },
        step,
        config: { id: liveIds[index] },
        by,
      })),
    );
    expect(changes.every((change) => change.type === 'ab_test.changed')).toBe(true);
    const events = (await outboxOf(all.id)).map((row) => row.event);
    expect(events).toEqual(steps.flatMap(() => ['config.published', 'ab_test.changed']));
    const [firstPublished] = await outboxOf(all.id);
    expect(JSON.parse(firstPublished?.payload ?? '{}')).toMatchObject({
      data: { config: { id: liveIds[0], label: 'Step start', revision: 1 }, action: 'lifecycle' },
    });
  });

  it('queues nothing for an endpoint not subscribed, a deleted one, or a draft edit', async () => {
    const abOnly = await createWebhook(['ab_test.changed']);
    const deleted = await createWebhook(['config.published'], URL_B);
    await ok(service, admin, 'deleteWebhook', { params: { id: deleted.id } });
    await editOk(service, admin, { operations: [CREATE_APP('draft-only')], summary: 'D' });
    await publishNewDraft();
    expect(await allDeliveries()).toBe(0);
    expect(await outboxOf(abOnly.id)).toEqual([]);
  });

  it('leaves no delivery when the change is refused (409): the outbox rolls back with it', async () => {
    const hook = await createWebhook(['config.published', 'ab_test.changed']);
    const published = await publishNewDraft();
    expect(await outboxOf(hook.id)).toHaveLength(1);
    // Publishing a published config, and a draft without the approval it needs: both 409.
    expectProblem(
      await send(service, admin, 'publishConfig', { params: { id: published.id } }),
      409,
    );
    await ok(service, admin, 'setAccountPolicy', {
      payload: { approvals_required: 1, reset_approvals_on_edit: true },
    });
    const draft = await editOk(service, admin, { operations: [CREATE_APP('x')], summary: 'X' });
    expectProblem(
      await send(service, admin, 'publishConfig', { params: { id: draft.id } }),
      409,
      'approval_required',
    );
    // A lifecycle step the test's status does not allow.
    const refused = await send(service, admin, 'editConfig', {
      payload: { operations: [{ end_ab_test: [{ id: 'onboarding' }] }], summary: 'End' },
    });
    expect(refused.statusCode).toBe(409);
    expect(await outboxOf(hook.id)).toHaveLength(1);
  });
});

describe('test events and retries', () => {
  beforeEach(() => startWith());

  it('queues webhook.test (202) with {webhook: {id}}, whatever the endpoint subscribes to', async () => {
    const hook = await createWebhook(['ab_test.changed']);
    const response = await send(service, admin, 'sendTestWebhook', { params: { id: hook.id } });
    const delivery = expectSuccess('sendTestWebhook', response, 202);
    expect(delivery).toMatchObject({ event: 'webhook.test', status: 'pending', attempts: 0 });
    const [row] = await outboxOf(hook.id);
    expect(row?.id).toBe(delivery.id);
    expect(row?.payload).toBe(
      JSON.stringify({
        type: 'webhook.test',
        timestamp: START,
        data: { webhook: { id: hook.id } },
      }),
    );
  });

  it('retries a failed delivery only: same id, attempts kept, due now; 409 otherwise', async () => {
    const hook = await createWebhook();
    const { id } = await ok(service, admin, 'sendTestWebhook', { params: { id: hook.id } });
    const retry = () =>
      send(service, admin, 'retryWebhookDelivery', { params: { id: hook.id, delivery_id: id } });
    expect(expectProblem(await retry(), 409, 'conflict').detail).toContain('pending');

    // The sender gives up after an attempt.
    const [claimed] = await service.store.claimDueOutbox(START, 10, 30_000);
    expect(claimed?.id).toBe(id);
    await service.store.recordOutboxAttempt(id, {
      at: START,
      delivered: false,
      response_status: 500,
      error: 'HTTP 500',
      next_attempt_at: null,
    });
    clock.advance(3_600_000);
    const retried = expectSuccess('retryWebhookDelivery', await retry(), 202);
    expect(retried).toMatchObject({
      id,
      status: 'pending',
      attempts: 1,
      next_attempt_at: clock.now().toISOString(),
      response_status: 500,
    });
    expect(expectProblem(await retry(), 409, 'conflict').detail).toContain('pending');
    const [again] = await service.store.claimDueOutbox(clock.now().toISOString(), 10, 1_000);
    expect(again).toMatchObject({ id, attempts: 1 });
    await service.store.recordOutboxAttempt(id, {
      at: clock.now().toISOString(),
      delivered: true,
      response_status: 204,
      error: null,
      next_attempt_at: null,
    });
    expect(expectProblem(await retry(), 409, 'conflict').detail).toContain('delivered');
    expectProblem(
      await send(service, admin, 'retryWebhookDelivery', {
        params: { id: hook.id, delivery_id: 'msg_nope' },
      }),
      404,
      'not_found',
    );
  });

  it('lists the deliveries newest first, a page at a time', async () => {
    const hook = await createWebhook();
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) {
      clock.advance(1);
      ids.push((await ok(service, admin, 'sendTestWebhook', { params: { id: hook.id } })).id);
    }
    const first = await ok(service, admin, 'listWebhookDeliveries', { params: { id: hook.id } });
    expect(first.map((delivery) => delivery.id)).toEqual(ids.slice(3).reverse());
    const every = await allPagesOf(service, admin, 'listWebhookDeliveries', {
      params: { id: hook.id },
    });
    expect(every.map((delivery) => delivery.id)).toEqual([...ids].reverse());
  });
});
