/**
 * Retention on both stores (Vitest projects `node` and `postgres`), with a manual clock:
 * settled webhook messages go when they outlive their setting and young ones stay, pending
 * ones never go, a deleted endpoint goes with its messages after its own setting, each
 * statement deletes a bounded batch, and one pruner at a time holds the lease.
 */
import type { StoredEvent } from '../store/experiments/experiment-events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedAccount } from '../domain/accounts';
import { manualClock } from '../testing/api';
import { createAccount } from '../testing/made-at';
import { openTestStore, testStoreKind, type TestStore } from '../testing/test-store';
import type { DeliveryStatus } from '../store/records';
import { DEFAULT_RETENTION, Pruner, PRUNING_LEASE } from './pruner';

const NOW = '2026-06-01T00:00:00.000Z';
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.parse(NOW) - days * DAY_MS).toISOString();

let database: TestStore;
let account: CreatedAccount;
let clock: ReturnType<typeof manualClock>;

beforeEach(async () => {
  clock = manualClock(NOW);
  database = await openTestStore();
  account = await createAccount(database.store, {
    name: 'Retention',
    ownerEmail: 'owner@example.com',
    now: new Date(daysAgo(400)),
  });
});
afterEach(async () => {
  await database.dispose();
});

async function webhook(id: string, deletedDaysAgo?: number): Promise<void> {
  const record = {
    id,
    account_id: account.account_id,
    url: `https://hooks.example.com/${id}`,
    events: ['config.published' as const],
    description: '',
    secret: 'whsec_c2VjcmV0',
    created_at: daysAgo(300),
    deleted_at: null,
  };
  const audit = {
    account_id: account.account_id,
    at: record.created_at,
    action: 'webhook.create',
    actor: null,
    target_id: id,
    detail: {},
  };
  expect(await database.store.insertWebhook(record, audit, 20)).toBe(true);
  if (deletedDaysAgo !== undefined) {
    await database.rows(
      'UPDATE webhooks SET deleted_at = ? WHERE id = ? RETURNING id',
      daysAgo(deletedDaysAgo),
      id,
    );
  }
}

/** `count` messages `prefix-1..` to `webhookId`, made and last attempted so many days ago. */
async function messages(
  prefix: string,
  webhookId: string,
  status: DeliveryStatus,
  count: number,
  madeDaysAgo: number,
  attemptedDaysAgo: number | null = madeDaysAgo,
): Promise<void> {
  await database.rows(
    `INSERT INTO webhook_deliveries (id, webhook_id, account_id, event, payload, status, attempts, created_at, next_attempt_at, last_attempt_at)
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     SELECT ? || '-' || i, ?, ?, 'config.published', '{}', ?, 1, ?, ?, ? FROM n
     RETURNING seq`,
    count,
    prefix,
    webhookId,
    account.account_id,
    status,
    daysAgo(madeDaysAgo),
    status === 'pending' ? daysAgo(madeDaysAgo) : null,
    attemptedDaysAgo === null ? null : daysAgo(attemptedDaysAgo),
  );
}

async function remaining(): Promise<string[]> {
  const rows = await database.rows<{ id: string }>('SELECT id FROM webhook_deliveries ORDER BY id');
  return rows.map((row) => row.id);
}

function pruner(settings = {}, holder?: string, store = database.store): Pruner {
  return new Pruner(store, clock.clock, { ...DEFAULT_RETENTION, ...settings }, undefined, holder);
}

describe(`retention (${testStoreKind()})`, () => {
  it('deletes settled messages past their setting, keeps young and pending ones', async () => {
    await webhook('wh_live');
    await messages('delivered-old', 'wh_live', 'delivered', 2, 31);
    await messages('delivered-young', 'wh_live', 'delivered', 1, 29);
    await messages('failed-old', 'wh_live', 'failed', 2, 91);
    await messages('failed-young', 'wh_live', 'failed', 1, 89);
    // Made long ago, but its last attempt (a retry) is recent: it counts from then.
    await messages('failed-retried', 'wh_live', 'failed', 1, 120, 10);
    await messages('failed-unattempted', 'wh_live', 'failed', 1, 95, null);
    await messages('pending-old', 'wh_live', 'pending', 1, 400);

    const round = await pruner().pruneOnce();
    expect(round?.delivered.rows).toBe(2);
    expect(round?.failed.rows).toBe(3);
    expect(await remaining()).toEqual([
      'delivered-young-1',
      'failed-retried-1',
      'failed-young-1',
      'pending-old-1',
    ]);
  });

  it('follows its settings: a shorter retention prunes younger messages', async () => {
    await webhook('wh_live');
    await messages('delivered', 'wh_live', 'delivered', 1, 8);
    await messages('failed', 'wh_live', 'failed', 1, 8);
    await pruner({ deliveredDays: 7, failedDays: 9 }).pruneOnce();
    expect(await remaining()).toEqual(['failed-1']);
  });

  it('deletes an endpoint and its messages 30 days after its deletion, not before', async () => {
    await webhook('wh_gone', 31);
    await webhook('wh_recent', 29);
    await messages('gone', 'wh_gone', 'failed', 2, 32);
    await messages('recent', 'wh_recent', 'failed', 1, 30);
    // Left pending by a delete racing a publish: never pruned, so its endpoint stays too.
    await webhook('wh_stuck', 60);
    await messages('stuck', 'wh_stuck', 'pending', 1, 61);

    const round = await pruner().pruneOnce();
    expect(round?.deletedWebhooks.rows).toBe(3);
    expect(await remaining()).toEqual(['recent-1', 'stuck-1']);
    const endpoints = await database.rows<{ id: string }>('SELECT id FROM webhooks ORDER BY id');
    expect(endpoints.map((row) => row.id)).toEqual(['wh_recent', 'wh_stuck']);
  });

  it('deletes sessions 7 days after they ended, and long-expired ones never ended', async () => {
    const owner = await database.store.getUser(account.user_id);
    const session = (id: string, lastSeenDaysAgo: number, endedDaysAgo: number | null) =>
      database.store.insertSession(
        {
          id,
          token_hash: `hash-${id}`,
          person_id: owner?.person_id as string,
          user_id: account.user_id,
          account_id: account.account_id,
          api_key_id: null,
          method: 'password',
          sso_generation: null,
          id_token: null,
          created_at: daysAgo(lastSeenDaysAgo + 1),
          last_seen_at: daysAgo(lastSeenDaysAgo),
          ip: null,
          user_agent: null,
          ended_at: endedDaysAgo === null ? null : daysAgo(endedDaysAgo),
          end_reason: endedDaysAgo === null ? null : 'signed_out',
        },
        null,
      );
    await session('ses_ended_long_ago', 40, 8);
    await session('ses_ended_lately', 40, 6);
    await session('ses_abandoned', 8, null);
    await session('ses_open', 0, null);
    const round = await pruner().pruneOnce();
    expect(round?.sessions.rows).toBe(2);
    const left = await database.rows<{ id: string }>('SELECT id FROM sessions ORDER BY id');
    expect(left.map((row) => row.id)).toEqual(['ses_ended_lately', 'ses_open']);
  });

  it('deletes raw experiment events and their ids after 90 days, keeps younger ones', async () => {
    const day = 86_400_000;
    const now = clock.clock().getTime();
    const event = (id: string, daysOld: number): StoredEvent => ({
      kind: 'metric',
      id,
      event: 'purchase',
      unit: `unit-${id}`,
      value: 1,
      atMs: now - daysOld * day,
    });
    await database.store.ingestEvents(account.account_id, [event('old', 91)], now - 91 * day);
    await database.store.ingestEvents(account.account_id, [event('young', 89)], now - 89 * day);
    const round = await pruner().pruneOnce();
    expect(round?.experimentEvents.rows).toBe(2);
    const ids = await database.rows<{ id: string }>('SELECT id FROM experiment_event_ids');
    expect(ids.map((row) => row.id)).toEqual(['young']);
    const events = await database.rows<{ unit: string }>(
      'SELECT unit FROM experiment_metric_events',
    );
    expect(events.map((row) => row.unit)).toEqual(['unit-young']);
    // A shorter setting reaches the younger one too.
    expect((await pruner({ experimentEventDays: 30 }).pruneOnce())?.experimentEvents.rows).toBe(2);
  });

  it('deletes in bounded batches: 1,200 rows take 3 statements of at most 500', async () => {
    await webhook('wh_live');
    await messages('old', 'wh_live', 'delivered', 1_200, 40);
    await messages('young', 'wh_live', 'delivered', 1, 1);
    const round = await pruner().pruneOnce();
    expect(round?.delivered).toEqual({ rows: 1_200, batches: 3 });
    expect(await remaining()).toEqual(['young-1']);
  });

  it('runs on one pruner at a time: the lease holder, until its lease expires', async () => {
    await webhook('wh_live');
    await messages('old', 'wh_live', 'delivered', 3, 40);
    const other = await database.openSecondStore();
    const leaseUntil = new Date(Date.parse(NOW) + DEFAULT_RETENTION.leaseMs).toISOString();
    expect(await other.takeLease(PRUNING_LEASE, 'other instance', NOW, leaseUntil)).toBe(true);

    expect(await pruner().pruneOnce()).toBeUndefined();
    expect(await remaining()).toHaveLength(3);

    clock.advance(DEFAULT_RETENTION.leaseMs);
    expect((await pruner().pruneOnce())?.delivered.rows).toBe(3);
    expect(await remaining()).toEqual([]);
  });

  it('lets only one of two pruners started together run a round at a time', async () => {
    await webhook('wh_live');
    await messages('old', 'wh_live', 'delivered', 1_200, 40);
    const other = await database.openSecondStore();
    const rounds = await Promise.all([
      pruner({}, 'first').pruneOnce(),
      pruner({}, 'second', other).pruneOnce(),
    ]);
    // The first to take the lease prunes everything; the other is refused the lease, or
    // comes after the release and finds nothing left.
    const deleted = rounds.map((round) => round?.delivered.rows ?? 0).sort((a, b) => a - b);
    expect(deleted).toEqual([0, 1_200]);
    expect(await remaining()).toEqual([]);
  });

  it('compresses config texts stored before compression, and reads them the same', async () => {
    const text = `# Grüße ${'x'.repeat(2_000)}\napps: []\n`;
    await database.rows(
      `UPDATE configs SET yaml = ?, yaml_packed = NULL WHERE id = ? RETURNING id`,
      text,
      account.live_config_id,
    );
    const round = await pruner().pruneOnce();
    expect(round?.packedConfigs).toBe(1);
    const [row] = await database.rows<{ yaml: string; yaml_packed: Uint8Array | null }>(
      'SELECT yaml, yaml_packed FROM configs WHERE id = ?',
      account.live_config_id,
    );
    expect(row?.yaml).toBe('');
    expect(row?.yaml_packed?.length).toBeLessThan(text.length / 4);
    const config = await database.store.getConfig(account.account_id, account.live_config_id);
    expect(config?.yaml).toBe(text);
    expect((await pruner().pruneOnce())?.packedConfigs).toBe(0);
  });

  it('merges the label index, written a segment per transaction, until one is left', async () => {
    for (let batch = 0; batch < 10; batch++) {
      await database.rows(
        `INSERT INTO configs (id, account_id, kind, label, yaml, revision, base_config_id, valid, error_count, warning_count, issues, created_at, updated_at)
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
         SELECT ? || '-' || i, ?, 'draft', ? || ' ' || i, '', 1, NULL, true, 0, 0, '[]', ?, ? FROM n
         RETURNING id`,
        `cfg_merge_${batch}`,
        account.account_id,
        `Merged ${batch}`,
        daysAgo(1),
        daysAgo(1),
      );
    }
    const first = await pruner().pruneOnce();
    // SQLite's FTS5 index is merged; PostgreSQL's pg_trgm index needs nothing of the kind.
    if (testStoreKind() === 'sqlite') expect(first?.labelIndexMerges).toBeGreaterThan(0);
    else expect(first?.labelIndexMerges).toBe(0);
    expect((await pruner().pruneOnce())?.labelIndexMerges).toBe(0);
    const { configs } = await database.store.listConfigs(
      account.account_id,
      { labelContains: 'merged 9 10' },
      { limit: 20, after: undefined },
    );
    expect(configs.items.map((config) => config.label)).toEqual(['Merged 9 100', 'Merged 9 10']);
  });
});
