/**
 * POST /delivery/{client_key}/events: each event taken or rejected on its own, duplicates
 * counted once, exposures checked against assignment (mismatches kept apart), units exposed
 * to two variants counted apart, JSON as text/plain, the batch's bounds, the key's budget,
 * and phases started by a change of weights.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { variantOf } from '../../contract/assignment';
import { MAX_EVENTS_PER_BATCH } from '../../contract/experiments';
import {
  editOk,
  expectProblem,
  expectSuccess,
  manualClock,
  ok,
  send,
  SHOP_YAML,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

const NOW = '2026-11-22T10:00:00.000Z';
const BIG_BUTTON = {
  id: 'bigger-button',
  status: 'running',
  variants: [
    { id: 'control', weight: 50 },
    { id: 'big', weight: 50 },
  ],
};

let clock: ReturnType<typeof manualClock>;
let service: TestService;
let key: string;
let eventNumber = 0;

beforeEach(async () => {
  clock = manualClock(NOW);
  service = await startTestService({ clock: clock.clock, initialYaml: SHOP_YAML });
  key = (await ok(service, service.adminKey, 'createClientKey', { payload: { name: 'Apps' } })).key;
});
afterEach(async () => {
  await service.close();
});

function exposure(unit: string, extra: Record<string, unknown> = {}) {
  const variant = variantOf(BIG_BUTTON, unit)?.id;
  eventNumber += 1;
  return {
    kind: 'exposure',
    test: 'bigger-button',
    variant,
    unit,
    at: NOW,
    id: `e${eventNumber}`,
    ...extra,
  };
}

function metric(unit: string, extra: Record<string, unknown> = {}) {
  eventNumber += 1;
  return { kind: 'metric', event: 'purchase', unit, at: NOW, id: `m${eventNumber}`, ...extra };
}

function sendEvents(events: unknown[], options: { key?: string; contentType?: string } = {}) {
  return send(service, undefined, 'sendEvents', {
    params: { client_key: options.key ?? key },
    payload: JSON.stringify({ events }),
    headers: { 'content-type': options.contentType ?? 'application/json' },
  });
}

async function accepted(events: unknown[]) {
  return expectSuccess('sendEvents', await sendEvents(events), 202);
}

describe('POST /delivery/{client_key}/events', () => {
  it('takes good events and names each bad one by its place and why', async () => {
    const answer = await accepted([
      exposure('u1'),
      metric('u1', { value: 12.5 }),
      exposure('u2', { test: 'onboarding' }),
      exposure('u3', { test: 'no-such-test' }),
      exposure('u4', { variant: 'huge' }),
      metric('u5', { at: '2026-11-14T09:59:00.000Z' }),
      metric('u6', { at: '2026-11-22T10:05:01.000Z' }),
      { kind: 'metric', event: 'purchase', unit: 'u7', at: NOW },
      metric('u8', { value: 'a lot' }),
      metric('x'.repeat(201)),
      exposure('u9', { id: 'i'.repeat(65) }),
      'not an event',
    ]);
    expect(answer).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [
        { index: 2, code: 'not_running' },
        { index: 3, code: 'not_running' },
        { index: 4, code: 'unknown_variant' },
        { index: 5, code: 'too_old' },
        { index: 6, code: 'in_future' },
        { index: 7, code: 'invalid' },
        { index: 8, code: 'invalid' },
        { index: 9, code: 'invalid' },
        { index: 10, code: 'invalid' },
        { index: 11, code: 'invalid' },
      ],
    });
  });

  it('counts an event id sent again once, in a later batch or the same one', async () => {
    const first = exposure('u1');
    expect(await accepted([first, first, metric('u1', { id: 'same' })])).toMatchObject({
      accepted: 2,
      duplicates: 1,
    });
    // Ids are one space per account: a metric event reusing an exposure's id is a duplicate.
    expect(await accepted([first, metric('u2', { id: first.id })])).toMatchObject({
      accepted: 0,
      duplicates: 2,
    });
  });

  it('takes JSON sent as text/plain (sendBeacon, no preflight) and nothing else', async () => {
    const answer = await sendEvents([exposure('u1')], { contentType: 'text/plain;charset=UTF-8' });
    expect(expectSuccess('sendEvents', answer, 202)).toMatchObject({ accepted: 1 });
    expectProblem(await sendEvents([exposure('u2')], { contentType: 'text/csv' }), 415);
    // text/plain stays a 415 on every other endpoint.
    const edit = await send(service, service.adminKey, 'editConfig', {
      payload: '{"operations":[]}',
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(edit, 415, 'unsupported_media_type');
  });

  it('refuses a malformed body, too many events and too many bytes, storing nothing', async () => {
    const malformed = await send(service, undefined, 'sendEvents', {
      params: { client_key: key },
      payload: '{"events": [',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(malformed, 400);
    expectProblem(await sendEvents({ length: 1 } as unknown as unknown[]), 400);
    const tooMany = Array.from({ length: MAX_EVENTS_PER_BATCH + 1 }, (_, index) =>
      metric(`u${index}`),
    );
    expectProblem(await sendEvents(tooMany), 400);
    // Within the count but past the bytes: a real batch padded with whitespace.
    const heavy = await send(service, undefined, 'sendEvents', {
      params: { client_key: key },
      payload: `${JSON.stringify({ events: [metric('u1')] })}${' '.repeat(256 * 1024)}`,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(heavy, 413);
    // Nothing of those was kept: the same ids are new now.
    expect(await accepted(tooMany.slice(0, 3))).toMatchObject({ accepted: 3, duplicates: 0 });
  });

  it('answers 404 to an unknown or revoked key', async () => {
    expectProblem(await sendEvents([exposure('u1')], { key: 'ck_unknown' }), 404);
    const made = await ok(service, service.adminKey, 'createClientKey', {
      payload: { name: 'Old' },
    });
    await ok(service, service.adminKey, 'revokeClientKey', { params: { id: made.id } });
    expectProblem(await sendEvents([exposure('u1')], { key: made.key }), 404);
  });

  it('refuses the very next batch of a key revoked after it sent events (404)', async () => {
    const made = await ok(service, service.adminKey, 'createClientKey', {
      payload: { name: 'Fleet' },
    });
    const before = expectSuccess(
      'sendEvents',
      await sendEvents([exposure('u1')], { key: made.key }),
      202,
    );
    expect(before.accepted).toBe(1);
    await ok(service, service.adminKey, 'revokeClientKey', { params: { id: made.id } });
    expectProblem(await sendEvents([exposure('u2')], { key: made.key }), 404);
  });

  it("rejects exposures of a test whose app is outside the key's apps", async () => {
    const scoped = await ok(service, service.adminKey, 'createClientKey', {
      payload: { name: 'iOS', apps: ['ios-app'] },
    });
    const answer = expectSuccess(
      'sendEvents',
      await sendEvents([exposure('u1'), metric('u1')], { key: scoped.key }),
      202,
    );
    expect(answer).toEqual({
      accepted: 1,
      duplicates: 0,
      rejected: [{ index: 0, code: 'not_running' }],
    });
  });

  it("bounds a key's events a second: past its budget, 429 with Retry-After", async () => {
    await service.close();
    service = await startTestService({
      clock: clock.clock,
      initialYaml: SHOP_YAML,
      eventBudget: { perSecond: 10, burst: 20 },
    });
    key = (await ok(service, service.adminKey, 'createClientKey', { payload: { name: 'A' } })).key;
    const batch = (size: number) => Array.from({ length: size }, (_, index) => metric(`u${index}`));
    expect(await accepted(batch(20))).toMatchObject({ accepted: 20 });
    const refused = await sendEvents(batch(5));
    expectProblem(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('1');
    clock.advance(500);
    expect(await accepted(batch(5))).toMatchObject({ accepted: 5 });
  });
});

describe('what results count', () => {
  async function results(query: Record<string, string> = {}) {
    return ok(service, service.adminKey, 'getResults', {
      params: { test_id: 'bigger-button' },
      query,
    });
  }

  it('keeps mismatches and units exposed to both variants apart', async () => {
    await service.close();
    service = await startTestService({
      clock: clock.clock,
      initialYaml: SHOP_YAML,
      resultsJob: { tickMs: 3_600_000 },
    });
    key = (await ok(service, service.adminKey, 'createClientKey', { payload: { name: 'A' } })).key;
    const other = (unit: string) => (variantOf(BIG_BUTTON, unit)?.id === 'big' ? 'control' : 'big');
    const units = Array.from({ length: 40 }, (_, index) => `unit-${index}`);
    await accepted(units.map((unit) => exposure(unit)));
    // Exposures naming the variant assignment does not give are mismatches, never counted; a
    // unit that saw both variants is a multiple exposure, left out of the results.
    await accepted(units.slice(0, 3).map((unit) => exposure(unit, { variant: other(unit) })));
    await accepted(['stray-1', 'stray-2'].map((unit) => exposure(unit, { variant: other(unit) })));
    // The job's first pass may already have counted part of this: the refresh, a second
    // later, is the computation that has seen every event.
    clock.advance(1_000);
    const refreshedAt = clock.now().toISOString();
    const asked = await ok(service, service.adminKey, 'refreshResults', {
      params: { test_id: 'bigger-button' },
    });
    expect(asked).toMatchObject({ test: 'bigger-button', requested_at: refreshedAt });
    await vi.waitFor(async () => expect((await results()).computed_at).toBe(refreshedAt), {
      timeout: 10_000,
      interval: 20,
    });
    const answer = await results();
    const expected = (variant: string) =>
      units.slice(3).filter((unit) => variantOf(BIG_BUTTON, unit)?.id === variant).length;
    expect(answer.units).toEqual([
      { variant: 'control', units: expected('control'), expected_share: 0.5 },
      { variant: 'big', units: expected('big'), expected_share: 0.5 },
    ]);
    expect(answer.health).toMatchObject({
      mismatches: 5,
      multiple_exposures: 3,
      multiple_exposures_warning: true,
    });
    expect(answer.health.srm_p).toBeGreaterThan(0.001);
    expect(answer).toMatchObject({ engine: 'bayesian', sequential: false, correction: 'none' });
  });

  it('starts a new phase when a running test\u2019s weights change, and places exposures in it', async () => {
    await accepted([exposure('u1')]);
    // A running test's weights change only through its fields (set), published as a whole.
    const draft = await editOk(service, service.adminKey, {
      operations: [
        {
          set: [
            { path: '/ab_tests/0/variants/0/weight', value: 80 },
            { path: '/ab_tests/0/variants/1/weight', value: 20 },
          ],
        },
      ],
      summary: 'More traffic to the control',
    });
    clock.advance(60_000);
    await ok(service, service.adminKey, 'publishConfig', { params: { id: draft.id } });
    await accepted([exposure('u2', { at: new Date(clock.now()).toISOString() })]);
    const answer = await results();
    expect(answer.phase).toMatchObject({
      number: 2,
      weights: { control: 80, big: 20 },
      ended_at: null,
    });
    expect(answer.phases.map((phase) => [phase.number, phase.ended_at])).toEqual([
      [1, '2026-11-22T10:01:00.000Z'],
      [2, null],
    ]);
    expect((await results({ phase: '1' })).phase.number).toBe(1);
    expectProblem(
      await send(service, service.adminKey, 'getResults', {
        params: { test_id: 'bigger-button' },
        query: { phase: '3' },
      }),
      404,
    );
  });

  it('answers 404 for a test that never ran', async () => {
    const never = await send(service, service.adminKey, 'getResults', {
      params: { test_id: 'onboarding' },
    });
    expect(expectProblem(never, 404).detail).toMatch(/has not run yet/);
    const unknown = await send(service, service.adminKey, 'getResults', {
      params: { test_id: 'nothing' },
    });
    expect(expectProblem(unknown, 404).detail).toMatch(/No A\/B test nothing/);
  });
});

describe('phases dated from the publish', () => {
  const ONBOARDING = (control: number) => ({
    id: 'onboarding',
    status: 'running',
    variants: [
      { id: 'a', weight: control },
      { id: 'b', weight: 100 - control },
    ],
  });
  const at = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();

  beforeEach(async () => {
    // No job pass after the first: only the reads below bring the phases in line.
    await service.close();
    service = await startTestService({
      clock: clock.clock,
      initialYaml: SHOP_YAML,
      resultsJob: { tickMs: 3_600_000 },
    });
    key = (await ok(service, service.adminKey, 'createClientKey', { payload: { name: 'A' } })).key;
  });

  /** An onboarding exposure sent at the clock's time under a/b weights of `control`/rest. */
  function onboarding(unit: string, control: number) {
    const sentAt = clock.now().toISOString();
    const variant = variantOf(ONBOARDING(control), unit)?.id;
    return exposure(unit, { test: 'onboarding', variant, at: sentAt });
  }

  async function onboardingResults() {
    return ok(service, service.adminKey, 'getResults', { params: { test_id: 'onboarding' } });
  }

  /** Each exposed unit of onboarding with the phase it was placed in. */
  function phaseOfUnits() {
    return service.rows<{ unit: string; phase: number }>(
      "SELECT unit, phase FROM experiment_units WHERE test_id = 'onboarding' ORDER BY unit",
    );
  }

  async function startOnboardingAt(minutes: number): Promise<string> {
    clock.set(at(minutes));
    const started = await editOk(service, service.adminKey, {
      operations: [{ start_ab_test: [{ id: 'onboarding' }] }],
    });
    return started.id;
  }

  async function publishWeightsAt(minutes: number, control: number): Promise<string> {
    const draft = await editOk(service, service.adminKey, {
      operations: [
        {
          set: [
            { path: '/ab_tests/1/variants/0/weight', value: control },
            { path: '/ab_tests/1/variants/1/weight', value: 100 - control },
          ],
        },
      ],
      summary: 'Onboarding weights',
    });
    clock.set(at(minutes));
    const published = await ok(service, service.adminKey, 'publishConfig', {
      params: { id: draft.id },
    });
    return published.id;
  }

  it('starts a phase at the publish, however late its first event comes', async () => {
    await startOnboardingAt(5);
    clock.set(at(35));
    await accepted([onboarding('u1', 50)]);
    const first = await onboardingResults();
    expect(first.phase).toMatchObject({ number: 1, started_at: at(5), ended_at: null });

    // An exposure before the next publish counts in phase 1, one after it in phase 2.
    clock.set(at(45));
    await accepted([onboarding('u2', 50)]);
    await publishWeightsAt(65, 80);
    clock.set(at(75));
    await accepted([onboarding('u3', 80)]);
    const second = await onboardingResults();
    expect(second.phase).toMatchObject({
      number: 2,
      started_at: at(65),
      ended_at: null,
      weights: { a: 80, b: 20 },
    });
    expect(second.phases.map((phase) => [phase.number, phase.started_at, phase.ended_at])).toEqual([
      [1, at(5), at(65)],
      [2, at(65), null],
    ]);
    expect(await phaseOfUnits()).toEqual([
      { unit: 'u1', phase: 1 },
      { unit: 'u2', phase: 1 },
      { unit: 'u3', phase: 2 },
    ]);
  });

  it('starts a phase when an earlier config is made live again, and places exposures in it', async () => {
    const first = await startOnboardingAt(5);
    clock.set(at(10));
    await accepted([onboarding('u1', 50)]);
    await publishWeightsAt(20, 80);
    clock.set(at(25));
    await accepted([onboarding('u2', 80)]);
    // The rollback brings back a config this instance has read before, under new phases.
    clock.set(at(30));
    await ok(service, service.adminKey, 'activateConfig', { params: { id: first } });
    clock.set(at(40));
    await accepted([onboarding('u3', 50)]);
    const answer = await onboardingResults();
    expect(answer.phases.map((phase) => [phase.number, phase.started_at, phase.weights])).toEqual([
      [1, at(5), { a: 50, b: 50 }],
      [2, at(20), { a: 80, b: 20 }],
      [3, at(30), { a: 50, b: 50 }],
    ]);
    expect(await phaseOfUnits()).toEqual([
      { unit: 'u1', phase: 1 },
      { unit: 'u2', phase: 2 },
      { unit: 'u3', phase: 3 },
    ]);
  });

  it('keeps when the live config became live when it is activated again', async () => {
    const started = await startOnboardingAt(5);
    clock.set(at(30));
    await ok(service, service.adminKey, 'activateConfig', { params: { id: started } });
    const stamp = await service.store.getLiveStamp(service.account.account_id);
    expect(stamp).toMatchObject({ id: started, live_since: at(5) });
  });

  it('lets a late reading of an older config change no phase', async () => {
    await startOnboardingAt(5);
    clock.set(at(10));
    await accepted([onboarding('u1', 50)]);
    await publishWeightsAt(20, 80);
    clock.set(at(25));
    await accepted([onboarding('u2', 80)]);
    // Another instance that still read the first config, after the second one's phase began.
    const phases = await service.store.syncPhases(
      service.account.account_id,
      [{ testId: 'onboarding', weights: { a: 50, b: 50 } }],
      at(5),
    );
    expect(phases.get('onboarding')).toBe(2);
    const answer = await onboardingResults();
    expect(answer.phases.map((phase) => [phase.number, phase.started_at, phase.ended_at])).toEqual([
      [1, at(5), at(20)],
      [2, at(20), null],
    ]);
  });
});

describe('events from a browser on another origin', () => {
  it('answer any origin, and a JSON POST passes its preflight', async () => {
    const simple = await send(service, undefined, 'sendEvents', {
      params: { client_key: key },
      payload: JSON.stringify({ events: [metric('u1')] }),
      headers: { 'content-type': 'text/plain', origin: 'https://shop.example' },
    });
    expect(simple.statusCode).toBe(202);
    expect(simple.headers['access-control-allow-origin']).toBe('*');
    const preflight = await service.call(undefined, {
      method: 'OPTIONS',
      url: `/api/v1/delivery/${key}/events`,
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toContain('Content-Type');
  });
});
