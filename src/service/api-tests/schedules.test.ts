/**
 * Scheduled changes on both stores, with a manual clock and schedulers looking every 10 ms:
 * the rules of POST /schedules, a publish and an A/B step made at their time, a change that
 * cannot run failing in words (audit, webhook event), two instances running each schedule
 * once, and a claim taken over from an instance that stopped.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { EditPool } from '../edit-work/edit-pool';
import {
  CREATE_APP,
  dataOf,
  editOk,
  expectProblem,
  manualClock,
  ok,
  send,
  SHOP_YAML,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import { ScheduleClaimLost } from '../store/schedules/schedules';

const FAST = { tickMs: 10 };
const WAIT = { timeout: 15_000, interval: 20 };
let time: ReturnType<typeof manualClock>;
let service: TestService;
const cleanUps: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  await service.close();
});

async function start(scheduler: { tickMs: number } | false = FAST) {
  time = manualClock('2026-11-27T09:00:00.000Z');
  service = await startTestService({ clock: time.clock, initialYaml: SHOP_YAML, scheduler });
}

const inMinutes = (minutes: number) =>
  new Date(time.clock().getTime() + minutes * 60_000).toISOString();

async function draftAdding(appId: string, key = service.adminKey) {
  return editOk(service, key, { operations: [CREATE_APP(appId)], summary: `Add ${appId}` });
}

/** A publish due in `minutes`: once it is done, the scheduler has looked since. */
async function markerDueIn(minutes: number): Promise<string> {
  const draft = await draftAdding(`marker-${minutes}-${Date.now()}`);
  const made = await ok(service, service.adminKey, 'createSchedule', {
    payload: { at: inMinutes(minutes), config_id: draft.id, action: 'publish' },
  });
  return made.id;
}

async function scheduled(id: string, key = service.adminKey) {
  const [found] = (await ok(service, key, 'listSchedules')).filter((one) => one.id === id);
  return found;
}

async function settled(id: string) {
  await vi.waitFor(async () => {
    expect(['done', 'failed']).toContain((await scheduled(id))?.status);
  }, WAIT);
  return scheduled(id);
}

describe('POST /schedules', () => {
  it('refuses a time past or beyond a year, a published config, a step that is not one', async () => {
    await start(false);
    const draft = await draftAdding('checkout-v2');
    const refuse = async (payload: object, status: number, code: string) =>
      expectProblem(
        await send(service, service.adminKey, 'createSchedule', { payload }),
        status,
        code,
      );
    await refuse(
      { at: inMinutes(-1), config_id: draft.id, action: 'publish' },
      400,
      'invalid_request',
    );
    await refuse(
      { at: inMinutes(367 * 24 * 60), config_id: draft.id, action: 'publish' },
      400,
      'invalid_request',
    );
    const live = await ok(service, service.adminKey, 'getLiveConfig');
    await refuse({ at: inMinutes(5), config_id: live.id, action: 'publish' }, 409, 'conflict');
    await refuse(
      {
        at: inMinutes(5),
        config_id: live.id,
        action: 'ab_test',
        operations: [{ create_app: [CREATE_APP('x')] }],
      },
      400,
      'invalid_request',
    );
    await refuse(
      { at: inMinutes(5), config_id: 'cfg_missing', action: 'publish' },
      404,
      'not_found',
    );
    const editor = await service.keyFor('editor');
    expectProblem(
      await send(service, editor, 'createSchedule', {
        payload: { at: inMinutes(5), config_id: draft.id, action: 'publish' },
      }),
      403,
      'forbidden',
    );
  });

  it('lists pending schedules by config, and cancels a pending one once', async () => {
    await start(false);
    const draft = await draftAdding('checkout-v2');
    const before = await send(service, service.adminKey, 'getConfig', { params: { id: draft.id } });
    const made = await ok(service, service.adminKey, 'createSchedule', {
      payload: { at: inMinutes(30), config_id: draft.id, action: 'publish' },
    });
    expect(made).toMatchObject({ status: 'pending', at: inMinutes(30), reason: null });
    // The config's record shows it, and its ETag changes with it.
    const scheduledDraft = await send(service, service.adminKey, 'getConfig', {
      params: { id: draft.id },
    });
    expect(JSON.parse(scheduledDraft.body).pending_schedules).toEqual([
      { id: made.id, action: 'publish', at: inMinutes(30) },
    ]);
    expect(scheduledDraft.headers.etag).not.toBe(before.headers.etag);
    const pending = await ok(service, service.adminKey, 'listSchedules', {
      query: { config_id: draft.id, status: 'pending' },
    });
    expect(pending.map((one) => one.id)).toEqual([made.id]);
    const cancelled = await ok(service, service.adminKey, 'cancelSchedule', {
      params: { schedule_id: made.id },
    });
    expect(cancelled.status).toBe('cancelled');
    const unscheduled = await ok(service, service.adminKey, 'getConfig', {
      params: { id: draft.id },
    });
    expect(unscheduled.pending_schedules).toBeUndefined();
    expectProblem(
      await send(service, service.adminKey, 'cancelSchedule', { params: { schedule_id: made.id } }),
      409,
      'conflict',
    );
  });
});

describe('the scheduler', () => {
  it('publishes a draft at its time, not before', async () => {
    await start();
    const draft = await draftAdding('checkout-v2');
    const made = await ok(service, service.adminKey, 'createSchedule', {
      payload: {
        at: inMinutes(10),
        config_id: draft.id,
        action: 'publish',
        summary: 'Monday 9:00',
      },
    });
    // A change due in a minute runs first: the scheduler has looked, and left the other.
    const marker = await markerDueIn(1);
    time.advance(60_000);
    expect((await settled(marker))?.status).toBe('done');
    expect((await scheduled(made.id))?.status).toBe('pending');
    time.advance(9 * 60_000);
    const done = await settled(made.id);
    expect(done).toMatchObject({ status: 'done', reason: null });
    const live = await ok(service, service.adminKey, 'getLiveConfig');
    expect(live.id).toBe(done?.result_config_id);
    expect(live.yaml).toContain('checkout-v2');
    const history = await ok(service, service.adminKey, 'getConfigHistory', {
      params: { id: live.id },
    });
    expect(history[0]).toMatchObject({ action: 'publish', summary: 'Monday 9:00' });
  });

  it('runs an A/B step at its time', async () => {
    await start();
    const live = await ok(service, service.adminKey, 'getLiveConfig');
    const made = await ok(service, service.adminKey, 'createSchedule', {
      payload: {
        at: inMinutes(1),
        config_id: live.id,
        action: 'ab_test',
        operations: [{ start_ab_test: [{ id: 'onboarding' }] }],
      },
    });
    time.advance(60_000);
    const done = await settled(made.id);
    expect(done?.status).toBe('done');
    const started = await ok(service, service.adminKey, 'getLiveConfig');
    expect(started.id).toBe(done?.result_config_id);
    expect(dataOf(started.yaml).ab_tests?.find((test) => test.id === 'onboarding')).toMatchObject({
      status: 'running',
    });
  });

  it('fails in words when the review policy asks for approvals, with its audit and webhook event', async () => {
    await start();
    const webhook = await ok(service, service.adminKey, 'createWebhook', {
      payload: { url: 'https://hooks.example.com/releases', events: ['schedule.failed'] },
    });
    const draft = await draftAdding('checkout-v2');
    const made = await ok(service, service.adminKey, 'createSchedule', {
      payload: { at: inMinutes(5), config_id: draft.id, action: 'publish' },
    });
    await ok(service, service.adminKey, 'setAccountPolicy', {
      payload: { approvals_required: 1, reset_approvals_on_edit: true },
    });
    const liveBefore = await ok(service, service.adminKey, 'getLiveConfig');
    time.advance(5 * 60_000);
    const failed = await settled(made.id);
    expect(failed?.status).toBe('failed');
    expect(failed?.reason).toMatch(/approval/i);
    expect((await ok(service, service.adminKey, 'getLiveConfig')).id).toBe(liveBefore.id);
    const audit = await ok(service, service.adminKey, 'getAudit', {
      query: { action: 'schedule.' },
    });
    expect(audit[0]).toMatchObject({ action: 'schedule.failed', target: { id: made.id } });
    const deliveries = await ok(service, service.adminKey, 'listWebhookDeliveries', {
      params: { id: webhook.id },
    });
    expect(deliveries.map((delivery) => delivery.event)).toEqual(['schedule.failed']);
  });

  it('fails when the person who scheduled it no longer holds the right', async () => {
    await start();
    const adminKey = await service.keyFor('admin');
    const draft = await draftAdding('checkout-v2', adminKey);
    const made = await ok(service, adminKey, 'createSchedule', {
      payload: { at: inMinutes(5), config_id: draft.id, action: 'publish' },
    });
    const userId = (await ok(service, adminKey, 'getAuthStatus')).user_id as string;
    await ok(service, service.adminKey, 'updateMember', {
      params: { user_id: userId },
      payload: { role: 'editor' },
    });
    time.advance(5 * 60_000);
    const failed = await settled(made.id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed?.reason).toContain('config:publish');
  });

  it('runs each schedule once with two instances on the database', async () => {
    await start();
    const pool = new EditPool({ workers: 1, cacheBytes: 1024 * 1024 });
    cleanUps.push(() => pool.close());
    const second: FastifyInstance = await buildApp({
      store: await service.openSecondStore(),
      clock: time.clock,
      sharedEditPool: pool,
      webhookSender: false,
      retention: false,
      scheduler: FAST,
    });
    cleanUps.push(() => second.close());
    await second.ready();
    const made: string[] = [];
    for (let n = 0; n < 6; n++) {
      const draft = await draftAdding(`app-${n}`);
      const schedule = await ok(service, service.adminKey, 'createSchedule', {
        payload: { at: inMinutes(1), config_id: draft.id, action: 'publish' },
      });
      made.push(schedule.id);
    }
    time.advance(60_000);
    for (const id of made) await settled(id);
    const rows = await service.rows<{ status: string; runs: number }>(
      'SELECT status, count(*) AS runs FROM schedules GROUP BY status',
    );
    expect(rows.map(({ status, runs }) => [status, Number(runs)])).toEqual([['done', 6]]);
    const publishes = await service.rows<{ publishes: number }>(
      "SELECT count(*) AS publishes FROM history WHERE action = 'publish'",
    );
    expect(Number(publishes[0]?.publishes)).toBe(6);
  });

  it('runs a schedule that fell due while no instance ran, once one starts', async () => {
    // This instance runs no scheduler: as if the service were down past the schedule's time.
    await start(false);
    const draft = await draftAdding('checkout-v2');
    const made = await ok(service, service.adminKey, 'createSchedule', {
      payload: { at: inMinutes(1), config_id: draft.id, action: 'publish' },
    });
    time.advance(60 * 60_000);
    expect((await scheduled(made.id))?.status).toBe('pending');
    const pool = new EditPool({ workers: 1, cacheBytes: 1024 * 1024 });
    cleanUps.push(() => pool.close());
    const restarted = await buildApp({
      store: await service.openSecondStore(),
      clock: time.clock,
      sharedEditPool: pool,
      webhookSender: false,
      retention: false,
      scheduler: FAST,
    });
    cleanUps.push(() => restarted.close());
    await restarted.ready();
    expect((await settled(made.id))?.status).toBe('done');
  });

  it("takes over a claim whose instance stopped, and a stopped instance's late work changes nothing", async () => {
    await start();
    const draft = await draftAdding('checkout-v2');
    const made = await ok(service, service.adminKey, 'createSchedule', {
      payload: { at: inMinutes(1), config_id: draft.id, action: 'publish' },
    });
    // Another instance claimed it at its time for 30 s, then stopped before running it.
    const claimedAt = inMinutes(1);
    const claimed = await service.store.claimSchedule(
      made.id,
      'stopped-instance',
      claimedAt,
      new Date(Date.parse(claimedAt) + 30_000).toISOString(),
    );
    expect(claimed?.status).toBe('running');
    const marker = await markerDueIn(1);
    time.advance(60_000);
    expect((await settled(marker))?.status).toBe('done');
    expect((await scheduled(made.id))?.status).toBe('running');
    time.advance(30_000);
    expect((await settled(made.id))?.status).toBe('done');
    // The stopped instance's settle, had it come back, rolls its unit of work back.
    await expect(
      service.store.changeConfigs(service.account.account_id, {}, (tx) =>
        tx.settleSchedule(made.id, 'stopped-instance', {
          status: 'done',
          reason: null,
          resultConfigId: null,
          at: time.clock().toISOString(),
        }),
      ),
    ).rejects.toBeInstanceOf(ScheduleClaimLost);
  });
});
