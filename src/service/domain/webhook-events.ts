/**
 * The webhook events of changes that go live (docs/webhooks.md, Events): written to the
 * outbox in the unit of work of the change, so they exist exactly when the change does.
 * Their `data` is built only when some endpoint of the account subscribes.
 */
import type { LifecycleAction } from '../../contract/operations';
import type { AbTestChange } from '../edit-work/edit-task';
import type { Principal } from '../store/records';
import type { ConfigTransaction } from '../store/store';

export type PublishAction = 'publish' | 'publish_on_approval' | 'activate' | 'lifecycle';

/** Who made the change: the user and the API key the request came with. */
export function changedBy(principal: Principal) {
  return {
    email: principal.user.email,
    ...(principal.key ? { api_key_id: principal.key.id, api_key_name: principal.key.name } : {}),
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

/**
 * `ab_test.changed`: one event per test a lifecycle step changed, in the order of the
 * request, with the test as the edit worker read it after the step.
 */
export function addAbTestChanges(
  tx: ConfigTransaction,
  principal: Principal,
  changes: readonly AbTestChange[],
  liveId: string,
  at: string,
): void {
  for (const change of changes) {
    tx.addWebhookEvents('ab_test.changed', at, () => ({
      ab_test: { id: change.id, app: change.app, status: change.status },
      step: stepOf(change.action),
      config: { id: liveId },
      by: changedBy(principal),
    }));
  }
}
