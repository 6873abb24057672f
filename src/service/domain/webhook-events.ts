/**
 * The webhook events of changes that go live (docs/webhooks.md, Events): written to the
 * outbox in the unit of work of the change, so they exist exactly when the change does.
 * Their `data` is built only when some endpoint of the account subscribes.
 */
import { configData, parseConfig } from '../../configs/parse';
import { readConfigContents } from '../../configs/config-contents';
import {
  actionKeyOf,
  isLifecycleAction,
  itemsOf,
  type LifecycleAction,
  type Operation,
} from '../../contract/operations';
import type { Principal } from '../store/records';
import type { ConfigTransaction } from '../store/store';

export type PublishAction = 'publish' | 'publish_on_approval' | 'activate' | 'lifecycle';

/** Who made the change: the user and the API key the request came with. */
export function changedBy(principal: Principal) {
  return {
    email: principal.user.email,
    api_key_id: principal.key.id,
    api_key_name: principal.key.name,
  };
}

/** `config.published`: a config became the live one. */
export function addConfigPublished(
  tx: ConfigTransaction,
  principal: Principal,
  config: { id: string; label: string; revision: number; published_at: string | null },
  action: PublishAction,
  at: string,
): void {
  tx.addWebhookEvents('config.published', at, () => ({
    config: {
      id: config.id,
      label: config.label,
      revision: config.revision,
      published_at: config.published_at,
    },
    action,
    by: changedBy(principal),
  }));
}

/** The step a lifecycle action names: `start_ab_test` is `start`. */
function stepOf(action: LifecycleAction): string {
  return action.replace(/_ab_test$/, '');
}

function abTestsOf(yaml: string) {
  const data = configData(parseConfig(yaml));
  return readConfigContents(data.ok ? data.data : null).abTests;
}

/**
 * `ab_test.changed`: one event per test a lifecycle step changed, in the order of the
 * request, with the test as it is after the step (a deleted test's app from before it).
 */
export function addAbTestChanges(
  tx: ConfigTransaction,
  principal: Principal,
  operations: readonly Operation[],
  before: string,
  after: string,
  liveId: string,
  at: string,
): void {
  const steps = operations.flatMap((operation) => {
    const action = actionKeyOf(operation);
    if (!isLifecycleAction(action)) return [];
    return itemsOf(operation).map((item) => ({ action, id: String(item.id) }));
  });
  // Parsed once for all of the request's events, and only if some endpoint listens.
  let tests: { before: ReturnType<typeof abTestsOf>; after: ReturnType<typeof abTestsOf> };
  const read = () => (tests ??= { before: abTestsOf(before), after: abTestsOf(after) });
  for (const step of steps) {
    tx.addWebhookEvents('ab_test.changed', at, () => {
      const { before: old, after: now } = read();
      const test = now.find((each) => each.id === step.id);
      const app = test?.app ?? old.find((each) => each.id === step.id)?.app ?? null;
      return {
        ab_test: { id: step.id, app, status: test ? test.status : 'deleted' },
        step: stepOf(step.action),
        config: { id: liveId },
        by: changedBy(principal),
      };
    });
  }
}
