/**
 * GET /audit and GET /audit/export (docs/api.md, Audit trail): every change with its actor,
 * address and target, filters, pages, NDJSON export; never a secret, webhook URLs masked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../contract/audit';
import { auditRecordSchema } from '../../contract/audit';
import {
  allPagesOf,
  CREATE_APP,
  editOk,
  errorPaths,
  expectProblem,
  ok,
  send,
  SHOP_YAML,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;
let admin: string;

beforeEach(async () => {
  service = await startTestService({
    initialYaml: SHOP_YAML,
    webhookUrlPolicy: { allowPrivate: true },
  });
  admin = service.adminKey;
});
afterEach(async () => {
  await service.close();
});

const SECRET_WEBHOOK_URL = 'http://127.0.0.1:9/hooks/T0SECRET/B1?token=xyz';

/** A tour of every change the API makes; what it revealed, to look for in the trail. */
async function tour() {
  const draft = await editOk(service, admin, {
    operations: [CREATE_APP('audited')],
    summary: 'Add an app',
  });
  await ok(service, admin, 'publishConfig', { params: { id: draft.id } });
  const apiKey = await ok(service, admin, 'createApiKey', { payload: { name: 'CI' } });
  await ok(service, admin, 'revokeApiKey', { params: { id: apiKey.id } });
  const clientKey = await ok(service, admin, 'createClientKey', { payload: { name: 'Web' } });
  await ok(service, admin, 'revokeClientKey', { params: { id: clientKey.id } });
  const webhook = await ok(service, admin, 'createWebhook', {
    payload: { url: SECRET_WEBHOOK_URL, events: ['config.published'] },
  });
  await ok(service, admin, 'deleteWebhook', { params: { id: webhook.id } });
  await ok(service, admin, 'setAccountPolicy', {
    payload: { approvals_required: 1, reset_approvals_on_edit: true },
  });
  return { draft, apiKey, clientKey, webhook };
}

describe('GET /audit', () => {
  it('records every change with its actor, address and target, newest first', async () => {
    const { draft, apiKey, clientKey, webhook } = await tour();
    const trail = await allPagesOf(service, admin, 'getAudit');
    const actions = trail.map((entry) => entry.action);
    expect(actions.slice(0, 9)).toEqual([
      'account.policy',
      'webhook.delete',
      'webhook.create',
      'client_key.revoke',
      'client_key.create',
      'api_key.revoke',
      'api_key.create',
      'config.publish',
      'config.edit',
    ]);
    const ids = trail.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const edit = trail.find((entry) => entry.action === 'config.edit');
    expect(edit).toMatchObject({
      actor: { type: 'key', name: 'Owner key' },
      target: { type: 'config', id: draft.id },
      ip: '127.0.0.1',
      detail: { revision: 1, operations: 1 },
    });
    expect(trail.find((entry) => entry.action === 'api_key.create')?.target).toEqual({
      type: 'api_key',
      id: apiKey.id,
    });
    expect(trail.find((entry) => entry.action === 'client_key.create')?.target?.id).toBe(
      clientKey.id,
    );
    expect(trail.find((entry) => entry.action === 'webhook.create')?.detail.url).toBe(
      'http://127.0.0.1:9/…',
    );
    expect(trail.find((entry) => entry.action === 'account.create')?.actor.type).toBe('system');
    expect(trail.some((entry) => entry.target?.id === webhook.id)).toBe(true);
  });

  it('never holds a secret, and masks webhook URLs', async () => {
    const { apiKey, clientKey, webhook } = await tour();
    const response = await send(service, admin, 'getAudit', { query: { limit: '200' } });
    for (const secret of [
      apiKey.secret,
      clientKey.key,
      webhook.secret,
      admin,
      'T0SECRET',
      'xyz',
      'pw',
    ]) {
      expect(response.body).not.toContain(secret);
    }
  });

  it('filters by actor, action, action family, target and time, and pages', async () => {
    const { draft } = await tour();
    const editor = await service.keyFor('editor');
    await editOk(service, editor, { operations: [CREATE_APP('by-editor')], summary: 'Add an app' });
    const all = await allPagesOf(service, admin, 'getAudit');
    const editorsEdit = all.find((entry) => entry.actor.name === 'editor key');
    expect(editorsEdit).toBeDefined();
    const byActor = await allPagesOf(service, admin, 'getAudit', {
      query: { actor: editorsEdit?.actor.id ?? '' },
    });
    expect(byActor.map((entry) => entry.action)).toEqual(['config.edit']);
    const keys = await allPagesOf(service, admin, 'getAudit', { query: { action: 'api_key.' } });
    expect(new Set(keys.map((entry) => entry.action))).toEqual(
      new Set(['api_key.create', 'api_key.revoke']),
    );
    const published = await allPagesOf(service, admin, 'getAudit', {
      query: { action: 'config.publish' },
    });
    expect(published).toHaveLength(1);
    const onDraft = await allPagesOf(service, admin, 'getAudit', { query: { target: draft.id } });
    expect(onDraft.map((entry) => entry.action)).toEqual(['config.edit']);
    const newest = all[0] as AuditEntry;
    const since = await allPagesOf(service, admin, 'getAudit', { query: { from: newest.at } });
    expect(since.every((entry) => entry.at >= newest.at)).toBe(true);
    const before = await allPagesOf(service, admin, 'getAudit', { query: { to: newest.at } });
    expect(before.every((entry) => entry.at < newest.at)).toBe(true);
    const pageOfTwo = await send(service, admin, 'getAudit', { query: { limit: '2' } });
    expect(pageOfTwo.json()).toHaveLength(2);
    expect(pageOfTwo.headers.link).toMatch(/rel="next"/);
  });

  it('needs audit:read: 403 for an editor and for a key without it', async () => {
    const editor = await service.keyFor('editor');
    expectProblem(await send(service, editor, 'getAudit'), 403);
    const narrow = await service.keyFor('admin', { permissions: ['config:read'] });
    expectProblem(await send(service, narrow, 'exportAudit'), 403);
  });

  it('records a test event sent and a failed delivery retried, naming the delivery', async () => {
    const webhook = await ok(service, admin, 'createWebhook', {
      payload: { url: SECRET_WEBHOOK_URL, events: ['config.published'] },
    });
    const sent = await ok(service, admin, 'sendTestWebhook', { params: { id: webhook.id } });
    // No sender runs here: the delivery is failed by hand, as an endpoint that stayed down.
    await service.rows(
      "UPDATE webhook_deliveries SET status = 'failed' WHERE id = ? RETURNING id",
      sent.id,
    );
    await ok(service, admin, 'retryWebhookDelivery', {
      params: { id: webhook.id, delivery_id: sent.id },
    });
    const trail = await allPagesOf(service, admin, 'getAudit', { query: { target: webhook.id } });
    expect(trail.map((entry) => [entry.action, entry.detail.delivery_id])).toEqual([
      ['webhook.retry', sent.id],
      ['webhook.test', sent.id],
      ['webhook.create', undefined],
    ]);
    // A retry refused (the delivery is pending again) records nothing.
    expectProblem(
      await send(service, admin, 'retryWebhookDelivery', {
        params: { id: webhook.id, delivery_id: sent.id },
      }),
      409,
    );
    expect(
      await allPagesOf(service, admin, 'getAudit', { query: { action: 'webhook.retry' } }),
    ).toHaveLength(1);
  });

  it('refuses a bad filter with 400 naming it', async () => {
    const response = await send(service, admin, 'getAudit', { query: { from: 'yesterday' } });
    expect(errorPaths(expectProblem(response, 400))).toContain('/from');
  });
});

describe('GET /audit/export', () => {
  it('streams the same records as NDJSON, oldest first, beyond one batch', async () => {
    // 260 keys made and revoked (a revoked key frees its place under the account's cap):
    // more records than one batch of the export.
    for (let i = 0; i < 260; i++) {
      const key = await ok(service, admin, 'createClientKey', { payload: { name: `k${i}` } });
      await ok(service, admin, 'revokeClientKey', { params: { id: key.id } });
    }
    const response = await send(service, admin, 'exportAudit');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson');
    const lines = response.body.trimEnd().split('\n');
    const exported = lines.map((line) => auditRecordSchema.parse(JSON.parse(line)));
    const paged = await allPagesOf(service, admin, 'getAudit');
    expect(exported).toEqual([...paged].reverse());
    expect(exported.length).toBeGreaterThan(520);
  });

  it('keeps to from and to', async () => {
    await tour();
    const trail = await allPagesOf(service, admin, 'getAudit');
    const middle = trail[Math.floor(trail.length / 2)] as AuditEntry;
    const response = await send(service, admin, 'exportAudit', { query: { to: middle.at } });
    const lines = response.body.trimEnd().split('\n').filter(Boolean);
    const exported = lines.map((line) => auditRecordSchema.parse(JSON.parse(line)));
    expect(exported.every((entry) => entry.at < middle.at)).toBe(true);
    expect(exported.length).toBe(trail.filter((entry) => entry.at < middle.at).length);
  });
});
