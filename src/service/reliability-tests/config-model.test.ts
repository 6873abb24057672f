/**
 * Model-based test (fast-check commands; docs/reliability.md): random sequences of
 * edits, publishes, activations (rollbacks), discards and A/B test lifecycle steps, run
 * against the service and against a simple model (testing/config-model.ts). After every step: the
 * status is the one the model predicts, the live config is the model's and holds its data,
 * it is valid (validated again here, from its YAML), every account has exactly one live
 * config, and every published version is byte for byte what it was when it was made.
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIFECYCLE_ACTIONS, type LifecycleAction } from '../../contract/operations';
import { validateConfigText } from '../../configs/validation/validate';
import { storedText } from '../store/configs/stored-text';
import { createAccount, createApiKey } from '../testing/made-at';
import { dataOf, edit, expectConforming, ok, send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import {
  createApp,
  createTest,
  dataOfYaml,
  deleteApp,
  isValid,
  lifecycle,
  type ConfigData,
  type ConfigModel,
  type Outcome,
} from '../testing/config-model';
import { reportFigure, runLength } from '../testing/run-length';

interface StoredYaml {
  readonly id: string;
  readonly yaml: string;
  readonly yaml_packed: Uint8Array | null;
}
const textOf = (row: StoredYaml) => storedText(row.yaml, row.yaml_packed);

const APPS = ['web', 'ios', 'tv'];
const TESTS = ['t1', 't2', 't3'];
const INITIAL_YAML = `apps:
  - id: web
    name: Web
    platform: web
    settings:
      theme: light
ab_tests:
  - id: t1
    app: web
    status: draft
    variants:
      - id: a
        weight: 50
      - id: b
        weight: 50
  - id: t2
    app: web
    status: running
    started_at: 2026-11-01T09:00:00.000Z
    variants:
      - id: a
        weight: 50
      - id: b
        weight: 50
`;
const VARIANTS = [
  { id: 'a', weight: 50 },
  { id: 'b', weight: 50, settings: { theme: 'dark' } },
];

interface Real {
  readonly service: TestService;
  /** Each sequence runs in an account of its own; the service's first account looks on. */
  readonly accountId: string;
  readonly key: string;
  /** Each published version's YAML when it was made. */
  readonly publishedYaml: Map<string, string>;
  readonly otherLive: { readonly key: string; readonly id: string; readonly yaml: string };
}

type Command = fc.AsyncCommand<ConfigModel, Real>;

let service: TestService;
let accounts = 0;
let steps = 0;
/** `<request> <status>` -> how often: proof that the sequences reach the interesting cases. */
const outcomes = new Map<string, number>();
function count(what: string, status: number): void {
  outcomes.set(`${what} ${status}`, (outcomes.get(`${what} ${status}`) ?? 0) + 1);
}
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.close();
});

/** A new account whose live config is INITIAL_YAML, and its owner's admin key. */
async function newAccount(): Promise<{ accountId: string; key: string }> {
  accounts++;
  const now = new Date();
  const account = await createAccount(service.store, {
    name: `Model ${accounts}`,
    ownerEmail: `model${accounts}@example.com`,
    initialYaml: INITIAL_YAML,
    now,
  });
  const user = await service.store.getUser(account.user_id);
  if (!user) throw new Error('no owner');
  const key = await createApiKey(service.store, { user, name: 'model', actor: null, now });
  return { accountId: account.account_id, key: key.secret };
}

/** The nth item of a list, wrapping: commands pick targets by index. */
function pick<T>(items: readonly T[], index: number): T {
  const item = items[index % items.length];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

type Target = { kind: 'live' } | { kind: 'published' | 'draft'; index: number };

function resolve(model: ConfigModel, target: Target): { id: string; data: ConfigData } | null {
  if (target.kind === 'live') {
    return { id: model.liveId, data: model.published.get(model.liveId) as ConfigData };
  }
  const map = target.kind === 'draft' ? model.drafts : model.published;
  if (map.size === 0) return null;
  const id = pick([...map.keys()], target.index);
  return { id, data: map.get(id) as ConfigData };
}

/** Asserts everything that must hold after any step. */
async function checkInvariants(model: ConfigModel, real: Real): Promise<void> {
  steps++;
  const { service, key } = real;
  const live = await ok(service, key, 'getLiveConfig');
  expect(live.id).toBe(model.liveId);
  expect(live.kind).toBe('published');
  expect(live.validation.valid).toBe(true);
  // Validated again from its text, not trusting the stored report.
  const report = validateConfigText(live.yaml, { type: 'published', name: live.label });
  expect(report.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  expect(dataOfYaml(dataOf(live.yaml))).toEqual(model.published.get(model.liveId));

  // Exactly one live config per account, a published one of that account, not closed.
  const rows = await service.rows<{
    account: string;
    live: number;
    kind: string;
    owner: string;
    closed: null;
  }>(
    `SELECT a.id AS account, CAST(COUNT(l.config_id) AS INTEGER) AS live, MIN(c.kind) AS kind, MIN(c.account_id) AS owner, MIN(c.closed_at) AS closed
         FROM accounts a LEFT JOIN live_configs l ON l.account_id = a.id LEFT JOIN configs c ON c.id = l.config_id
        GROUP BY a.id`,
  );
  expect(rows).toHaveLength(1 + accounts);
  for (const row of rows) {
    expect(row).toEqual({
      account: row.account,
      live: 1,
      kind: 'published',
      owner: row.account,
      closed: null,
    });
  }

  // Published versions never change, and none disappears.
  const published = await service.rows<StoredYaml>(
    "SELECT id, yaml, yaml_packed FROM configs WHERE account_id = ? AND kind = 'published'",
    real.accountId,
  );
  expect(new Map(published.map((row) => [row.id, textOf(row)]))).toEqual(real.publishedYaml);
  expect([...real.publishedYaml.keys()].sort()).toEqual([...model.published.keys()].sort());

  // The open drafts are the model's, holding the model's data.
  const drafts = await service.rows<StoredYaml>(
    "SELECT id, yaml, yaml_packed FROM configs WHERE account_id = ? AND kind = 'draft' AND closed_at IS NULL",
    real.accountId,
  );
  expect(new Map(drafts.map((row) => [row.id, dataOfYaml(dataOf(textOf(row)))]))).toEqual(
    model.drafts,
  );

  // The other account saw nothing of it.
  const other = await ok(service, real.otherLive.key, 'getLiveConfig');
  expect([other.id, other.yaml]).toEqual([real.otherLive.id, real.otherLive.yaml]);
}

/** Sends an edit and checks the status against the model's prediction. */
async function editAndCompare(
  real: Real,
  outcome: Outcome,
  body: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  const response = await edit(real.service, real.key, body);
  expect(expectConforming('editConfig', response), response.body).toBe(outcome.status);
  count(Object.keys((body.operations as object[])[0] ?? {})[0] ?? '', response.statusCode);
  return response;
}

/** An ordinary edit (create_app, delete_app, create_ab_test) of a draft or published config. */
class EditCommand implements Command {
  constructor(
    readonly target: Target,
    readonly op: 'create_app' | 'delete_app' | 'create_ab_test',
    readonly id: string,
    readonly app: string,
  ) {}
  check = (model: ConfigModel) => resolve(model, this.target) !== null;
  async run(model: ConfigModel, real: Real) {
    const target = resolve(model, this.target) as { id: string; data: ConfigData };
    const item =
      this.op === 'create_app'
        ? { id: this.id, name: this.id, platform: 'web', settings: { theme: 'light' } }
        : this.op === 'delete_app'
          ? { id: this.id }
          : { id: this.id, app: this.app, variants: VARIANTS };
    const outcome =
      this.op === 'create_app'
        ? createApp(target.data, this.id)
        : this.op === 'delete_app'
          ? deleteApp(target.data, this.id)
          : createTest(target.data, this.id, this.app);
    const response = await editAndCompare(real, outcome, {
      config_id: target.id,
      operations: [{ [this.op]: [item] }],
      summary: `${this.op} ${this.id}`,
    });
    if (outcome.status === 200) {
      const result = response.json() as { id: string; kind: string; created: boolean };
      expect(result.kind).toBe('draft');
      // A published config is copied into a new draft; a draft is edited in place.
      expect(result.created).toBe(!model.drafts.has(target.id));
      model.drafts.set(result.id, outcome.data);
    }
    await checkInvariants(model, real);
  }
  toString = () => `edit ${JSON.stringify(this.target)} ${this.op} ${this.id} ${this.app}`;
}

/** A lifecycle step on the live config or a draft: its result is published and goes live. */
class LifecycleCommand implements Command {
  constructor(
    readonly target: Target,
    readonly action: LifecycleAction,
    readonly id: string,
    readonly variant: string,
  ) {}
  check = (model: ConfigModel) => resolve(model, this.target) !== null;
  async run(model: ConfigModel, real: Real) {
    const target = resolve(model, this.target) as { id: string; data: ConfigData };
    const item: Record<string, unknown> = { id: this.id };
    if (this.action === 'promote_ab_test') item.variant = this.variant;
    if (this.action === 'update_ab_test') item.description = `Described at step ${steps}`;
    const outcome = lifecycle(target.data, this.action, this.id, this.variant);
    const response = await editAndCompare(real, outcome, {
      config_id: target.id,
      operations: [{ [this.action]: [item] }],
    });
    if (outcome.status === 200) {
      const result = response.json() as { id: string; validation: { yaml: string } };
      model.published.set(result.id, outcome.data);
      model.liveId = result.id;
      model.drafts.delete(target.id);
      real.publishedYaml.set(result.id, result.validation.yaml);
    }
    await checkInvariants(model, real);
  }
  toString = () =>
    `${this.action} ${this.id} on ${JSON.stringify(this.target)} (variant ${this.variant})`;
}

class PublishCommand implements Command {
  constructor(readonly index: number) {}
  check = (model: ConfigModel) => model.drafts.size > 0;
  async run(model: ConfigModel, real: Real) {
    const id = pick([...model.drafts.keys()], this.index);
    const data = model.drafts.get(id) as ConfigData;
    const response = await send(real.service, real.key, 'publishConfig', { params: { id } });
    const status = expectConforming('publishConfig', response);
    expect(status, response.body).toBe(isValid(data) ? 200 : 409);
    count('publish', status);
    if (status === 200) {
      const record = response.json() as { id: string; yaml: string };
      model.published.set(record.id, data);
      model.liveId = record.id;
      model.drafts.delete(id);
      real.publishedYaml.set(record.id, record.yaml);
    }
    await checkInvariants(model, real);
  }
  toString = () => `publish draft #${this.index}`;
}

/** Rollback to a published version, or (refused) activating a draft. */
class ActivateCommand implements Command {
  constructor(readonly target: Target) {}
  check = (model: ConfigModel) => resolve(model, this.target) !== null;
  async run(model: ConfigModel, real: Real) {
    const { id } = resolve(model, this.target) as { id: string };
    const response = await send(real.service, real.key, 'activateConfig', { params: { id } });
    const draft = model.drafts.has(id);
    expect(expectConforming('activateConfig', response), response.body).toBe(draft ? 409 : 200);
    count('activate', response.statusCode);
    if (!draft) model.liveId = id;
    await checkInvariants(model, real);
  }
  toString = () => `activate ${JSON.stringify(this.target)}`;
}

/** Discarding a draft, or (refused) a published version. */
class DiscardCommand implements Command {
  constructor(readonly target: Target) {}
  check = (model: ConfigModel) => resolve(model, this.target) !== null;
  async run(model: ConfigModel, real: Real) {
    const { id } = resolve(model, this.target) as { id: string };
    const response = await send(real.service, real.key, 'deleteConfig', { params: { id } });
    const draft = model.drafts.has(id);
    expect(expectConforming('deleteConfig', response), response.body).toBe(draft ? 204 : 409);
    count('discard', response.statusCode);
    model.drafts.delete(id);
    await checkInvariants(model, real);
  }
  toString = () => `discard ${JSON.stringify(this.target)}`;
}

const index = fc.nat({ max: 20 });
const anyTarget: fc.Arbitrary<Target> = fc.oneof(
  fc.constant({ kind: 'live' } as const),
  index.map((i) => ({ kind: 'published', index: i }) as const),
  index.map((i) => ({ kind: 'draft', index: i }) as const),
);
const liveOrDraft: fc.Arbitrary<Target> = fc.oneof(
  fc.constant({ kind: 'live' } as const),
  index.map((i) => ({ kind: 'draft', index: i }) as const),
);

const lifecycleCommand = fc
  .tuple(
    liveOrDraft,
    fc.constantFrom(...LIFECYCLE_ACTIONS),
    fc.constantFrom(...TESTS),
    fc.constantFrom('a', 'b', 'zz'),
  )
  .map(([target, action, id, variant]) => new LifecycleCommand(target, action, id, variant));

const commands = [
  // Twice: lifecycle steps are the richest part of the model.
  lifecycleCommand,
  lifecycleCommand,
  fc
    .tuple(anyTarget, fc.constantFrom(...APPS))
    .map(([target, id]) => new EditCommand(target, 'create_app', id, '')),
  fc
    .tuple(anyTarget, fc.constantFrom(...APPS))
    .map(([target, id]) => new EditCommand(target, 'delete_app', id, '')),
  fc
    .tuple(anyTarget, fc.constantFrom(...TESTS), fc.constantFrom(...APPS))
    .map(([target, id, app]) => new EditCommand(target, 'create_ab_test', id, app)),
  index.map((i) => new PublishCommand(i)),
  index.map((i) => new ActivateCommand({ kind: 'published', index: i })),
  anyTarget.map((target) => new ActivateCommand(target)),
  anyTarget.map((target) => new DiscardCommand(target)),
];

const RUNS = runLength(50, 150);
/** Reached in practically every run of this length (rates measured over long runs). */
const COMMON_OUTCOMES = [
  'activate 200',
  'create_ab_test 200',
  'create_app 200',
  'delete_ab_test 200',
  'delete_app 200',
  'discard 204',
  'end_ab_test 200',
  'promote_ab_test 200',
  'publish 200',
  'start_ab_test 200',
  'update_ab_test 200',
];
const REQUIRED_OUTCOMES = runLength(COMMON_OUTCOMES, [
  ...COMMON_OUTCOMES,
  'activate 409',
  'create_app 409',
  'delete_app 409',
  'discard 409',
  'end_ab_test 409',
  'publish 409',
  'start_ab_test 409',
]);
const MAX_COMMANDS = runLength(30, 60);

it(`${RUNS} random sequences of up to ${MAX_COMMANDS} steps agree with the model`, async () => {
  steps = 0;
  outcomes.clear();
  const missing = () => REQUIRED_OUTCOMES.filter((needed) => !outcomes.has(needed));
  // A kind of step may, by chance, succeed in none of the sequences (a started A/B test
  // needs a valid draft with a test first): more batches, up to three, before judging.
  for (let batch = 0; batch < 3 && (batch === 0 || missing().length > 0); batch++) {
    await fc.assert(
      fc.asyncProperty(
        fc.commands(commands, { maxCommands: MAX_COMMANDS, size: '+1' }),
        async (sequence) => {
          const { accountId, key } = await newAccount();
          const otherLive = await ok(service, service.adminKey, 'getLiveConfig');
          const live = await ok(service, key, 'getLiveConfig');
          const model: ConfigModel = {
            liveId: live.id,
            published: new Map([[live.id, dataOfYaml(dataOf(live.yaml))]]),
            drafts: new Map(),
          };
          const real: Real = {
            service,
            accountId,
            key,
            publishedYaml: new Map([[live.id, live.yaml]]),
            otherLive: { key: service.adminKey, id: otherLive.id, yaml: otherLive.yaml },
          };
          await fc.asyncModelRun(() => ({ model, real }), sequence);
        },
      ),
      { numRuns: RUNS },
    );
  }
  // The sequences did reach deep enough to mean something.
  expect(steps).toBeGreaterThan(RUNS * 5);
  // Every kind of step succeeded somewhere (the long run: and was refused somewhere).
  const reached = [...outcomes.keys()].sort();
  for (const needed of REQUIRED_OUTCOMES) expect(reached).toContain(needed);
  reportFigure(
    `model-based: ${RUNS} sequences, ${steps} steps checked against the model (${[...outcomes].map(([what, n]) => `${what}: ${n}`).join(', ')})`,
  );
}, 600_000);
