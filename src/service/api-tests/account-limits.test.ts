/**
 * The account limits (docs/api.md, Limits), on both stores: 20 webhook endpoints, 100 client
 * keys, 50 API keys a person, 200 metrics. Each is reached, the next create is a 409 `limit_reached`
 * naming it and writes nothing, what no longer works frees a place, and two creates racing
 * for the last place do not both pass.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EndpointName } from '../../contract/endpoints';
import type { Problem } from '../../contract/problem';
import { LIMITS, type LimitName } from '../domain/limits';
import { expectConforming, expectProblem, manualClock, ok, send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let clock: ReturnType<typeof manualClock>;
let service: TestService;
let admin: string;

beforeEach(async () => {
  clock = manualClock('2026-11-22T10:00:00.000Z');
  service = await startTestService({ clock: clock.clock });
  admin = service.adminKey;
});
afterEach(async () => {
  await service.close();
});

interface Cap {
  readonly limit: LimitName;
  readonly create: EndpointName;
  readonly payload: (n: number) => object;
  /** What frees a place: the endpoint and how it names the thing (its `id` param by default). */
  readonly release: EndpointName;
  readonly releaseParam?: string;
  /** How many of them the service's own set-up made (the admin's key). */
  readonly made: number;
  readonly table: string;
}

const CAPS: readonly Cap[] = [
  {
    limit: 'webhook_endpoints',
    create: 'createWebhook',
    payload: (n) => ({ url: `https://hooks.example.com/${n}`, events: ['config.published'] }),
    release: 'deleteWebhook',
    made: 0,
    table: 'webhooks',
  },
  {
    limit: 'client_keys',
    create: 'createClientKey',
    payload: (n) => ({ name: `Key ${n}` }),
    release: 'revokeClientKey',
    made: 0,
    table: 'client_keys',
  },
  {
    limit: 'api_keys_per_person',
    create: 'createApiKey',
    payload: (n) => ({ name: `Key ${n}` }),
    release: 'revokeApiKey',
    made: 1,
    table: 'api_keys',
  },
  {
    limit: 'metrics',
    create: 'createMetric',
    payload: (n) => ({ id: `metric-${n}`, name: `Metric ${n}`, kind: 'count', event: 'click' }),
    release: 'deleteMetric',
    releaseParam: 'metric_id',
    made: 0,
    table: 'metrics',
  },
];

async function create(cap: Cap, n: number) {
  return send(service, admin, cap.create, { payload: cap.payload(n) });
}

/** Creates one, expecting a 201; its id. */
async function created(cap: Cap, n: number): Promise<string> {
  const answer = await create(cap, n);
  expect(answer.statusCode, answer.body).toBe(201);
  return (answer.json() as { id: string }).id;
}

async function fillTo(cap: Cap, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = cap.made; n < count; n++) ids.push(await created(cap, n));
  return ids;
}

async function rowCount(cap: Cap): Promise<number> {
  const [row] = await service.rows<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM ${cap.table}`,
  );
  return Number(row?.n);
}

function expectLimit(problem: Problem, cap: Cap): void {
  expect(problem.limit).toEqual({ name: cap.limit, value: LIMITS[cap.limit] });
  expect(problem.detail).toContain(String(LIMITS[cap.limit]));
}

describe.each(CAPS)('the limit $limit', (cap) => {
  const value = LIMITS[cap.limit];

  it(`takes ${value}, refuses one more with a 409 naming it, and frees a place on release`, async () => {
    const ids = await fillTo(cap, value);
    const rows = await rowCount(cap);
    const refused = await create(cap, value);
    expect(expectConforming(cap.create, refused)).toBe(409);
    expectLimit(expectProblem(refused, 409, 'limit_reached'), cap);
    expect(await rowCount(cap)).toBe(rows);

    const first = ids[0] ?? '';
    const params = { [cap.releaseParam ?? 'id']: first };
    const released = await send(service, admin, cap.release, { params });
    expect(released.statusCode).toBeLessThan(300);
    await created(cap, value + 1);
    expectProblem(await create(cap, value + 2), 409, 'limit_reached');
  });

  it('lets one of two creates racing for the last place pass', async () => {
    await fillTo(cap, value - 1);
    const answers = await Promise.all([create(cap, value), create(cap, value + 1)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    if (refused) expectLimit(expectProblem(refused, 409, 'limit_reached'), cap);
  });
});

describe('API keys a person', () => {
  it('count neither expired nor revoked keys', async () => {
    const cap = CAPS[2] as Cap;
    for (let n = cap.made; n < LIMITS.api_keys_per_person; n++) {
      await ok(service, admin, 'createApiKey', {
        payload: { name: `Short ${n}`, expires_in_days: 1 },
      });
    }
    expectProblem(await create(cap, 0), 409, 'limit_reached');
    clock.advance(86_400_000 + 1);
    await created(cap, 1);
  });
});
