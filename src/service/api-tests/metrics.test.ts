/**
 * GET/POST /metrics, PATCH/DELETE /metrics/{metric_id} (docs/experiments.md, Metrics): an
 * account's metrics, the A/B tests of its live config that name them, the audit of every
 * change; and the warning a config gets for a test naming a metric the account lacks, on
 * every path that validates a config.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ValidationIssue } from '../../contract/validation';
import { audit } from '../domain/audit';
import { LIMITS } from '../domain/limits';
import {
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

let clock: ReturnType<typeof manualClock>;
let service: TestService;
let admin: string;

beforeEach(async () => {
  clock = manualClock('2026-11-22T10:00:00.000Z');
  service = await startTestService({ clock: clock.clock, initialYaml: SHOP_YAML });
  admin = service.adminKey;
});
afterEach(async () => {
  await service.close();
});

const CHECKOUT_RATE = {
  id: 'checkout-rate',
  name: 'Checkout rate',
  kind: 'binomial',
  event: 'checkout',
};

function create(payload: unknown, key = admin) {
  return send(service, key, 'createMetric', { payload });
}

async function auditOf(targetId: string) {
  const rows = await service.rows<{ action: string; actor: string | null; detail: string }>(
    'SELECT action, actor, detail FROM audit_log WHERE target_id = ? ORDER BY seq',
    targetId,
  );
  return rows.map((row) => ({ ...row, detail: JSON.parse(row.detail) as unknown }));
}

function metricWarnings(issues: readonly ValidationIssue[]) {
  return issues.filter((issue) => issue.code === 'ab_test.unknown_metric');
}

describe('POST /metrics', () => {
  it('defines a metric with its defaults: 201, used by no test yet, audited', async () => {
    const response = await create(CHECKOUT_RATE);
    expect(expectSuccess('createMetric', response, 201)).toEqual({
      ...CHECKOUT_RATE,
      window_hours: 72,
      inverse: false,
      cap: null,
      used_by: [],
      created_at: '2026-11-22T10:00:00.000Z',
      updated_at: '2026-11-22T10:00:00.000Z',
    });
    const entries = await auditOf('checkout-rate');
    expect(entries).toEqual([
      {
        action: 'metric.created',
        actor: expect.stringMatching(/^key_/),
        detail: {
          name: 'Checkout rate',
          kind: 'binomial',
          event: 'checkout',
          window_hours: 72,
          inverse: false,
          cap: null,
        },
      },
    ]);
  });

  it('keeps every field given, a cap with a fraction included', async () => {
    const revenue = {
      id: 'revenue',
      name: 'Revenue per visitor',
      kind: 'mean',
      event: 'purchase',
      window_hours: 2160,
      inverse: true,
      cap: 999.5,
    };
    expect(await ok(service, admin, 'createMetric', { payload: revenue })).toMatchObject(revenue);
    expect(await ok(service, admin, 'listMetrics')).toMatchObject([revenue]);
  });

  it.each([
    [{ ...CHECKOUT_RATE, id: 'Checkout' }, '/id'],
    [{ ...CHECKOUT_RATE, id: '9lives' }, '/id'],
    [{ ...CHECKOUT_RATE, id: undefined }, '/id'],
    [{ ...CHECKOUT_RATE, name: '   ' }, '/name'],
    [{ ...CHECKOUT_RATE, name: 'x'.repeat(101) }, '/name'],
    [{ ...CHECKOUT_RATE, kind: 'ratio' }, '/kind'],
    [{ ...CHECKOUT_RATE, event: '' }, '/event'],
    [{ ...CHECKOUT_RATE, window_hours: 0 }, '/window_hours'],
    [{ ...CHECKOUT_RATE, window_hours: 2161 }, '/window_hours'],
    [{ ...CHECKOUT_RATE, window_hours: 1.5 }, '/window_hours'],
    [{ ...CHECKOUT_RATE, inverse: 'yes' }, '/inverse'],
    [{ ...CHECKOUT_RATE, cap: 0 }, '/cap'],
    [{ ...CHECKOUT_RATE, cap: -3 }, '/cap'],
    [{ ...CHECKOUT_RATE, cap: null }, '/cap'],
    [{ ...CHECKOUT_RATE, colour: 'red' }, '/colour'],
  ])('refuses %o with a 400 naming %s, and defines nothing', async (payload, path) => {
    const problem = expectProblem(await create(payload), 400, 'invalid_request');
    expect(errorPaths(problem)).toContain(path);
    expect(await ok(service, admin, 'listMetrics')).toEqual([]);
  });

  it('refuses an id the account already has: 409 conflict, the first kept', async () => {
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    const problem = expectProblem(
      await create({ ...CHECKOUT_RATE, name: 'Another' }),
      409,
      'conflict',
    );
    expect(problem.detail).toContain('checkout-rate');
    expect((await ok(service, admin, 'listMetrics')).map((metric) => metric.name)).toEqual([
      'Checkout rate',
    ]);
    expect(await auditOf('checkout-rate')).toHaveLength(1);
  });

  it(`refuses the ${LIMITS.metrics + 1}th metric: 409 limit_reached naming the limit`, async () => {
    const accountId = service.account.account_id;
    const at = '2026-11-22T10:00:00.000Z';
    for (let n = 0; n < LIMITS.metrics; n++) {
      const metric = {
        account_id: accountId,
        id: `m-${String(n).padStart(3, '0')}`,
        name: `Metric ${n}`,
        kind: 'count' as const,
        event: 'click',
        window_hours: 72,
        inverse: false,
        cap: null,
        created_at: at,
        updated_at: at,
      };
      const entry = audit(accountId, at, 'metric.created', null, metric.id, {});
      expect(await service.store.createMetric(metric, entry, LIMITS.metrics)).toBe('created');
    }
    const problem = expectProblem(await create(CHECKOUT_RATE), 409, 'limit_reached');
    expect(problem.limit).toEqual({ name: 'metrics', value: LIMITS.metrics });
    // A taken id is a conflict first, whatever the count.
    expectProblem(await create({ ...CHECKOUT_RATE, id: 'm-000' }), 409, 'conflict');
    // Deleting one makes room.
    await send(service, admin, 'deleteMetric', { params: { metric_id: 'm-007' } });
    expectSuccess('createMetric', await create(CHECKOUT_RATE), 201);
  });
});

describe('GET /metrics', () => {
  it('lists the account’s metrics by id, in byte order on both databases', async () => {
    for (const id of ['ab', 'a0', 'a-b', 'b']) {
      await ok(service, admin, 'createMetric', { payload: { ...CHECKOUT_RATE, id } });
    }
    const listed = await ok(service, admin, 'listMetrics');
    expect(listed.map((metric) => metric.id)).toEqual(['a-b', 'a0', 'ab', 'b']);
  });

  it('shows no metric of another account, and changes none', async () => {
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    const other = await service.otherAccount();
    expect(await ok(service, other.key, 'listMetrics')).toEqual([]);
    const params = { metric_id: 'checkout-rate' };
    expectProblem(
      await send(service, other.key, 'updateMetric', { params, payload: { name: 'Mine' } }),
      404,
      'not_found',
    );
    expectProblem(await send(service, other.key, 'deleteMetric', { params }), 404, 'not_found');
    expectSuccess('createMetric', await create(CHECKOUT_RATE, other.key), 201);
  });

  it('names the tests of the live config that use each metric, goals and guardrails', async () => {
    for (const id of ['checkout-rate', 'revenue', 'errors', 'unused']) {
      await ok(service, admin, 'createMetric', { payload: { ...CHECKOUT_RATE, id } });
    }
    const draft = await editOk(service, admin, {
      summary: 'Measure the tests',
      operations: [
        {
          set: [
            { path: '/ab_tests/0/metrics', value: ['checkout-rate', 'revenue'] },
            { path: '/ab_tests/0/guardrails', value: ['errors'] },
            { path: '/ab_tests/1/guardrails', value: ['checkout-rate'] },
          ],
        },
      ],
    });
    // A draft is not what runs: nothing uses the metrics yet.
    const before = await ok(service, admin, 'listMetrics');
    expect(before.every((metric) => metric.used_by.length === 0)).toBe(true);
    await ok(service, admin, 'publishConfig', { params: { id: draft.id } });
    const usedBy = Object.fromEntries(
      (await ok(service, admin, 'listMetrics')).map((metric) => [metric.id, metric.used_by]),
    );
    expect(usedBy).toEqual({
      'checkout-rate': [
        { test_id: 'bigger-button', role: 'goal' },
        { test_id: 'onboarding', role: 'guardrail' },
      ],
      errors: [{ test_id: 'bigger-button', role: 'guardrail' }],
      revenue: [{ test_id: 'bigger-button', role: 'goal' }],
      unused: [],
    });
    const updated = await ok(service, admin, 'updateMetric', {
      params: { metric_id: 'errors' },
      payload: { inverse: true },
    });
    expect(updated.used_by).toEqual([{ test_id: 'bigger-button', role: 'guardrail' }]);
  });

  it("reads a metric's tests without starting their phases: a phase dates from its config's publish", async () => {
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    await ok(service, admin, 'listMetrics');
    expect(await service.rows('SELECT number FROM experiment_phases')).toEqual([]);
    clock.advance(60_000);
    // The account's first event starts the running test's phase, dated from when its config
    // went live (the account's creation), not from the event.
    const { key } = await ok(service, admin, 'createClientKey', { payload: { name: 'Apps' } });
    const at = clock.now().toISOString();
    const event = { kind: 'metric', event: 'checkout', unit: 'u1', at, id: 'm1' };
    const params = { client_key: key };
    await ok(service, undefined, 'sendEvents', { params, payload: { events: [event] } });
    const results = await ok(service, admin, 'getResults', {
      params: { test_id: 'bigger-button' },
    });
    expect(results.phase.started_at).toBe('2026-11-22T10:00:00.000Z');
  });

  it('is read with config:read; every change needs config:write (403)', async () => {
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    const viewer = await service.keyFor('viewer');
    expect(await ok(service, viewer, 'listMetrics')).toHaveLength(1);
    const params = { metric_id: 'checkout-rate' };
    expectProblem(await create({ ...CHECKOUT_RATE, id: 'other' }, viewer), 403, 'forbidden');
    expectProblem(
      await send(service, viewer, 'updateMetric', { params, payload: { name: 'X' } }),
      403,
      'forbidden',
    );
    expectProblem(await send(service, viewer, 'deleteMetric', { params }), 403, 'forbidden');
    expect(await ok(service, admin, 'listMetrics')).toMatchObject([{ name: 'Checkout rate' }]);
    expectProblem(await send(service, undefined, 'listMetrics'), 401);
  });
});

describe('PATCH /metrics/{metric_id}', () => {
  it('changes the fields given, removes the cap with null, and audits the change', async () => {
    await ok(service, admin, 'createMetric', { payload: { ...CHECKOUT_RATE, cap: 5 } });
    clock.advance(60_000);
    const params = { metric_id: 'checkout-rate' };
    const response = await send(service, admin, 'updateMetric', {
      params,
      payload: { name: 'Orders', kind: 'count', window_hours: 24, cap: null },
    });
    expect(expectSuccess('updateMetric', response)).toEqual({
      ...CHECKOUT_RATE,
      name: 'Orders',
      kind: 'count',
      window_hours: 24,
      inverse: false,
      cap: null,
      used_by: [],
      created_at: '2026-11-22T10:00:00.000Z',
      updated_at: '2026-11-22T10:01:00.000Z',
    });
    expect((await ok(service, admin, 'listMetrics'))[0]).toMatchObject({
      cap: null,
      kind: 'count',
    });
    const entries = await auditOf('checkout-rate');
    expect(entries.map((entry) => entry.action)).toEqual(['metric.created', 'metric.updated']);
    expect(entries[1]?.detail).toEqual({
      name: 'Orders',
      kind: 'count',
      window_hours: 24,
      cap: null,
    });
  });

  it.each([
    [{}, ''],
    [{ id: 'renamed' }, ''],
    [{ cap: 'high' }, '/cap'],
    [{ window_hours: 0 }, '/window_hours'],
    [{ kind: 'median' }, '/kind'],
  ])('refuses %o with a 400 naming %s', async (payload, path) => {
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    const problem = expectProblem(
      await send(service, admin, 'updateMetric', {
        params: { metric_id: 'checkout-rate' },
        payload,
      }),
      400,
      'invalid_request',
    );
    expect(errorPaths(problem)).toContain(path);
  });

  it('is a 404 for a metric the account does not have, and audits nothing', async () => {
    const problem = expectProblem(
      await send(service, admin, 'updateMetric', {
        params: { metric_id: 'nothing' },
        payload: { name: 'X' },
      }),
      404,
      'not_found',
    );
    expect(problem.detail).toContain('nothing');
    expect(await auditOf('nothing')).toEqual([]);
  });
});

describe('DELETE /metrics/{metric_id}', () => {
  it('deletes: 204, gone from the list, audited; a second delete is a 404', async () => {
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    const params = { metric_id: 'checkout-rate' };
    const response = await send(service, admin, 'deleteMetric', { params });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await ok(service, admin, 'listMetrics')).toEqual([]);
    expectProblem(await send(service, admin, 'deleteMetric', { params }), 404, 'not_found');
    const entries = await auditOf('checkout-rate');
    expect(entries.map((entry) => entry.action)).toEqual(['metric.created', 'metric.deleted']);
  });

  it('shows in the audit trail as changes to a metric', async () => {
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    await send(service, admin, 'deleteMetric', { params: { metric_id: 'checkout-rate' } });
    const trail = await ok(service, admin, 'getAudit', { query: { action: 'metric.' } });
    expect(trail.map((entry) => [entry.action, entry.target])).toEqual([
      ['metric.deleted', { type: 'metric', id: 'checkout-rate' }],
      ['metric.created', { type: 'metric', id: 'checkout-rate' }],
    ]);
  });
});

describe('ab_test.unknown_metric on every path that validates a config', () => {
  const NAME_METRICS = {
    set: [{ path: '/ab_tests/1/metrics', value: ['checkout-rate', 'gone'] }],
  };

  it('an edit: a warning on the unknown id alone, the draft still valid', async () => {
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    const result = await editOk(service, admin, { summary: 'Goals', operations: [NAME_METRICS] });
    expect(result.validation.valid).toBe(true);
    const warnings = metricWarnings(result.validation.issues);
    expect(warnings).toEqual([
      {
        code: 'ab_test.unknown_metric',
        severity: 'warning',
        message: `A/B test "onboarding" names the metric "gone", which is not one of this account's metrics`,
        path: '/ab_tests/1/metrics/1',
        line: expect.any(Number),
        column: expect.any(Number),
        length: 4,
      },
    ]);
    const [warning] = warnings;
    const line = (result.validation.yaml ?? '').split('\n')[(warning?.line ?? 0) - 1] ?? '';
    expect(line.slice((warning?.column ?? 0) - 1)).toMatch(/^gone\b/);
  });

  it('an edit as typed text, and a lifecycle step that publishes', async () => {
    const draft = await editOk(service, admin, { summary: 'Goals', operations: [NAME_METRICS] });
    const text = draft.validation.yaml ?? '';
    const at = text.indexOf('gone');
    const typed = await editOk(service, admin, {
      config_id: draft.id,
      summary: 'Typed',
      operations: [
        { set: [{ path: '/ab_tests/1/metrics', value: ['checkout-rate', 'signups'] }] },
        { edit_text: [{ changes: [{ offset: at, delete_count: 4, insert: 'signups' }] }] },
      ],
    });
    expect(metricWarnings(typed.validation.issues).map((issue) => issue.path)).toEqual([
      '/ab_tests/1/metrics/0',
      '/ab_tests/1/metrics/1',
    ]);
    await ok(service, admin, 'createMetric', { payload: { ...CHECKOUT_RATE, id: 'signups' } });
    // Starting the test publishes the draft: valid with its warning, judged by today's metrics.
    const started = await editOk(service, admin, {
      config_id: draft.id,
      operations: [{ start_ab_test: [{ id: 'onboarding' }] }],
    });
    expect(started.config.kind).toBe('published');
    expect(started.validation.valid).toBe(true);
    expect(metricWarnings(started.validation.issues).map((issue) => issue.path)).toEqual([
      '/ab_tests/1/metrics/0',
    ]);
  });

  it('a publish: the published report judged by the metrics at the publish, not the last edit', async () => {
    const draft = await editOk(service, admin, { summary: 'Goals', operations: [NAME_METRICS] });
    expect(metricWarnings(draft.validation.issues)).toHaveLength(2);
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    const published = await ok(service, admin, 'publishConfig', { params: { id: draft.id } });
    expect(published.validation.valid).toBe(true);
    expect(metricWarnings(published.validation.issues).map((issue) => issue.path)).toEqual([
      '/ab_tests/1/metrics/1',
    ]);
    expect(published.yaml).toBe(draft.validation.yaml);
  });

  it('a merged edit on an older revision', async () => {
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    const first = await editOk(service, admin, {
      summary: 'Rename',
      operations: [{ update_app: [{ id: 'checkout', name: 'Till' }] }],
    });
    await editOk(service, admin, {
      config_id: first.id,
      summary: 'Rename',
      operations: [{ update_app: [{ id: 'ios-app', name: 'iPhone' }] }],
    });
    const merged = await editOk(service, admin, {
      config_id: first.id,
      summary: 'Goals',
      base_revision: 1,
      operations: [NAME_METRICS],
    });
    expect(merged.merged_revisions).toEqual([2]);
    expect(metricWarnings(merged.validation.issues).map((issue) => issue.path)).toEqual([
      '/ab_tests/1/metrics/1',
    ]);
  });

  it('an approval that publishes: judged by the metrics at the approval', async () => {
    await ok(service, admin, 'setAccountPolicy', {
      payload: { approvals_required: 1, reset_approvals_on_edit: true },
    });
    const draft = await editOk(service, admin, { summary: 'Goals', operations: [NAME_METRICS] });
    await ok(service, admin, 'requestReview', {
      params: { id: draft.id },
      payload: { publish_on_approval: true },
    });
    await ok(service, admin, 'createMetric', { payload: CHECKOUT_RATE });
    const reviewer = await service.keyFor('admin');
    const approved = expectSuccess(
      'addReview',
      await send(service, reviewer, 'addReview', {
        params: { id: draft.id },
        payload: { verdict: 'approve' },
      }),
      201,
    );
    const publishedId = approved.published_config_id;
    if (!publishedId) throw new Error('the approval did not publish');
    const published = await ok(service, admin, 'getConfig', { params: { id: publishedId } });
    expect(metricWarnings(published.validation.issues).map((issue) => issue.path)).toEqual([
      '/ab_tests/1/metrics/1',
    ]);
  });
});
