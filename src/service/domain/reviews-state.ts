/**
 * Where a draft stands in its review, worked out from what is stored with it (who asked, each
 * reviewer's latest verdict and its revision) and the account's policy. Nothing is stored
 * that an edit or a change of policy would have to update: the state follows from them.
 */
import type { AccountPolicy, ReviewState } from '../../contract/reviews';
import type { ConfigRecordRow, ConfigReview } from '../store/records';
import { Refused } from './refusals';

type Reviewed = Pick<ConfigRecordRow, 'kind' | 'revision' | 'review'>;

/**
 * The reviewers whose approval counts now: with reset_approvals_on_edit, only approvals of
 * the current revision; without it, approvals of any revision of the draft.
 */
export function countedApprovals(config: Reviewed, policy: AccountPolicy): string[] {
  if (config.kind !== 'draft' || !config.review) return [];
  return config.review.verdicts
    .filter(
      (verdict) =>
        verdict.verdict === 'approve' &&
        (!policy.reset_approvals_on_edit || verdict.revision === config.revision),
    )
    .map((verdict) => verdict.by);
}

/** Changes asked for on the current revision: an edit answers them. */
function changesRequested(config: Reviewed): boolean {
  return (
    config.review?.verdicts.some(
      (verdict) => verdict.verdict === 'request_changes' && verdict.revision === config.revision,
    ) ?? false
  );
}

/** Approved takes at least one approval, even where the policy asks for none. */
export function isApproved(config: Reviewed, policy: AccountPolicy): boolean {
  return (
    !changesRequested(config) &&
    countedApprovals(config, policy).length >= Math.max(1, policy.approvals_required)
  );
}

export function reviewStateOf(config: Reviewed, policy: AccountPolicy): ReviewState {
  const approvals = countedApprovals(config, policy).length;
  const base = { approvals, approvals_required: policy.approvals_required };
  const review = config.kind === 'draft' ? config.review : null;
  if (!review) return { state: 'none', ...base };
  const requested = {
    requested_by: review.requested_by,
    requested_at: review.requested_at,
    publish_on_approval: review.publish_on_approval,
  };
  const state = changesRequested(config)
    ? 'changes_requested'
    : isApproved(config, policy)
      ? 'approved'
      : 'in_review';
  return { state, ...base, ...requested };
}

/**
 * What a draft lacks to be published under `policy`, for people ("1 of 2 approvals");
 * undefined when it lacks nothing.
 */
export function missingApprovals(config: Reviewed, policy: AccountPolicy): string | undefined {
  const required = policy.approvals_required;
  if (required === 0) return undefined;
  const approvals = countedApprovals(config, policy).length;
  if (approvals >= required && !changesRequested(config)) return undefined;
  const counted = `${approvals} of ${required} approval${required === 1 ? '' : 's'}`;
  const where = policy.reset_approvals_on_edit ? ` on revision ${config.revision}` : '';
  return changesRequested(config)
    ? `${counted}${where}, and changes were requested on this revision`
    : `${counted}${where}`;
}

/** Refuses to publish `draft` while it lacks the approvals `policy` asks for. */
export function requireApprovals(
  draft: Reviewed & Pick<ConfigRecordRow, 'id'>,
  policy: AccountPolicy,
): void {
  const missing = missingApprovals(draft, policy);
  if (missing === undefined) return;
  throw new Refused(
    'approval_required',
    `The draft ${draft.id} has ${missing}: it needs ${policy.approvals_required} approval${policy.approvals_required === 1 ? '' : 's'} by others before it is published`,
  );
}

/** `review` with `by`'s latest verdict replaced. */
export function withVerdict(
  review: ConfigReview,
  by: string,
  verdict: 'approve' | 'request_changes',
  revision: number,
): ConfigReview {
  return {
    ...review,
    verdicts: [...review.verdicts.filter((entry) => entry.by !== by), { by, verdict, revision }],
  };
}

/** The lines of a YAML text, as an editor numbers them (a final newline ends the last line). */
export function lineCountOf(yaml: string): number {
  if (yaml === '') return 0;
  const lines = yaml.split('\n').length;
  return yaml.endsWith('\n') ? lines - 1 : lines;
}
