/**
 * Which lifecycle steps a page offers for a test: those its status allows (the contract's
 * LIFECYCLE_TRANSITIONS, the same table the server applies) and the key's permissions allow.
 */
import type { AuthStatus } from '../../contract/auth-status';
import type { AbTestStatus } from '../../contract/config-document';
import { LIFECYCLE_TRANSITIONS, type LifecycleAction } from '../../contract/operations';
import { offers } from '../lib/permissions';

/** The steps in the order the page shows them, with the words it uses. */
export const LIFECYCLE_STEPS = [
  { action: 'update_ab_test', verb: 'Edit', done: 'Updated' },
  { action: 'start_ab_test', verb: 'Start', done: 'Started' },
  { action: 'end_ab_test', verb: 'End', done: 'Ended' },
  { action: 'promote_ab_test', verb: 'Promote', done: 'Promoted' },
  { action: 'delete_ab_test', verb: 'Delete', done: 'Deleted' },
] as const satisfies readonly { action: LifecycleAction; verb: string; done: string }[];

export type LifecycleStep = (typeof LIFECYCLE_STEPS)[number];

export function allowsStep(status: string | null, action: LifecycleAction): boolean {
  return (LIFECYCLE_TRANSITIONS[action] as readonly (string | null)[]).includes(status);
}

/** The steps to offer; none without `config:publish` (every step publishes). */
export function stepsOffered(
  status: string | null,
  auth: AuthStatus | undefined,
): readonly LifecycleStep[] {
  if (!offers(auth, 'config:publish')) return [];
  return LIFECYCLE_STEPS.filter((step) => allowsStep(status, step.action));
}

/** A running test keeps its variants: only its description may change. */
export function variantsEditable(status: string | null): boolean {
  return status === ('draft' satisfies AbTestStatus);
}
