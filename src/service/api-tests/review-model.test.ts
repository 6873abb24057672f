/**
 * The review state machine against a small model: random policies and random sequences of
 * review requests, approvals, requests for changes, comments, edits and publishes by random
 * users, each answered by the service as the model says, with the draft's review state
 * (state, approvals) the model's after every step.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountPolicy, ReviewStateName } from '../../contract/reviews';
import { CREATE_APP, editOk, ok, send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

/** The users: 0 wrote every draft; 1 and 2 may publish; 3 may edit, not publish. */
const USERS = [0, 1, 2, 3] as const;
type User = (typeof USERS)[number];
const MAY_PUBLISH: ReadonlySet<User> = new Set([0, 1, 2]);

type Step =
  | { readonly kind: 'request'; readonly user: User; readonly publishOnApproval: boolean }
  | { readonly kind: 'approve' | 'request_changes' | 'comment'; readonly user: User }
  | { readonly kind: 'edit'; readonly user: User }
  | { readonly kind: 'publish'; readonly user: User };

const user = fc.constantFrom(...USERS);
// Verdicts weigh more than publishes, so that sequences reach approvals twice, edits after
// approvals and the last approval before a publish ends the draft.
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('request' as const),
      user,
      publishOnApproval: fc.boolean(),
    }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('approve' as const), user }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('request_changes', 'comment'), user }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), user }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('publish' as const), user }) },
);
const policy: fc.Arbitrary<AccountPolicy> = fc.record({
  approvals_required: fc.integer({ min: 0, max: 2 }),
  reset_approvals_on_edit: fc.boolean(),
});

/** What the model keeps of a draft. */
class Model {
  open = true;
  revision = 1;
  requested = false;
  publishOnApproval = false;
  readonly verdicts = new Map<User, { verdict: 'approve' | 'request_changes'; revision: number }>();

  constructor(readonly policy: AccountPolicy) {}

  approvals(): User[] {
    return [...this.verdicts]
      .filter(
        ([, v]) =>
          v.verdict === 'approve' &&
          (!this.policy.reset_approvals_on_edit || v.revision === this.revision),
      )
      .map(([by]) => by);
  }

  changesRequested(): boolean {
    return [...this.verdicts.values()].some(
      (v) => v.verdict === 'request_changes' && v.revision === this.revision,
    );
  }

  approved(): boolean {
    return (
      !this.changesRequested() &&
      this.approvals().length >= Math.max(1, this.policy.approvals_required)
    );
  }

  state(): ReviewStateName {
    if (!this.requested) return 'none';
    if (this.changesRequested()) return 'changes_requested';
    return this.approved() ? 'approved' : 'in_review';
  }

  mayPublish(): boolean {
    const required = this.policy.approvals_required;
    return required === 0 || (this.approvals().length >= required && !this.changesRequested());
  }

  /** The status (and problem code) the service answers `step` with; applies it. */
  apply(step: Step): [number, string?] {
    const { user: by } = step;
    if (step.kind === 'request') {
      if (!this.open) return [404, 'not_found'];
      this.requested = true;
      this.publishOnApproval = step.publishOnApproval;
      return [200];
    }
    if (step.kind === 'edit') {
      if (!this.open) return [404, 'not_found'];
      this.revision += 1;
      return [200];
    }
    if (step.kind === 'publish') {
      if (!MAY_PUBLISH.has(by)) return [403, 'forbidden'];
      if (!this.open) return [404, 'not_found'];
      if (!this.mayPublish()) return [409, 'approval_required'];
      this.open = false;
      return [200];
    }
    if (step.kind === 'comment') return this.open ? [201] : [404, 'not_found'];
    if (!MAY_PUBLISH.has(by)) return [403, 'forbidden'];
    if (!this.open) return [404, 'not_found'];
    if (!this.requested) return [409, 'review_not_requested'];
    if (step.kind === 'approve') {
      if (by === 0) return [403, 'own_draft'];
      if (this.approvals().includes(by)) return [409, 'already_approved'];
    }
    this.verdicts.set(by, { verdict: step.kind, revision: this.revision });
    if (step.kind === 'approve' && this.publishOnApproval && this.approved()) this.open = false;
    return [201];
  }
}

let service: TestService;
let keys: Record<User, string>;
let apps = 0;

beforeAll(async () => {
  service = await startTestService();
  keys = {
    0: service.adminKey,
    1: await service.keyFor('admin'),
    2: await service.keyFor('admin'),
    3: await service.keyFor('editor'),
  };
});
afterAll(async () => {
  await service.close();
});

function nextApp() {
  apps += 1;
  return CREATE_APP(`app-${apps}`);
}

async function run(id: string, next: Step) {
  const key = keys[next.user];
  const params = { params: { id } };
  switch (next.kind) {
    case 'request':
      return send(service, key, 'requestReview', {
        ...params,
        payload: { publish_on_approval: next.publishOnApproval },
      });
    case 'edit':
      return send(service, key, 'editConfig', {
        payload: { operations: [nextApp()], config_id: id, summary: 'More' },
      });
    case 'publish':
      return send(service, key, 'publishConfig', params);
    default:
      return send(service, key, 'addReview', {
        ...params,
        payload: { verdict: next.kind, body: 'A word' },
      });
  }
}

describe('the review state machine', () => {
  it('answers every step as the model does', async () => {
    await fc.assert(
      fc.asyncProperty(
        policy,
        fc.array(step, { minLength: 1, maxLength: 20 }),
        async (p, steps) => {
          await ok(service, keys[0], 'setAccountPolicy', { payload: p });
          const made = await editOk(service, keys[0], { operations: [nextApp()], summary: 'New' });
          const model = new Model(p);
          for (const next of steps) {
            const [status, code] = model.apply(next);
            const response = await run(made.id, next);
            expect(response.statusCode, `${JSON.stringify(next)}: ${response.body}`).toBe(status);
            if (code) expect((response.json() as { code: string }).code).toBe(code);
            const read = await send(service, keys[0], 'getConfig', { params: { id: made.id } });
            if (!model.open) {
              expect(read.statusCode).toBe(404);
              continue;
            }
            const review = (read.json() as { review: { state: string; approvals: number } }).review;
            expect(review).toMatchObject({
              state: model.state(),
              approvals: model.approvals().length,
              approvals_required: p.approvals_required,
            });
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
