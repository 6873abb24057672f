/**
 * The review state as the config list shows it, and which drafts wait for the caller's review.
 * A list entry does not say who approved, so the list cannot leave out a draft the caller has
 * already approved: the draft's page says that, and a second approval is refused in words.
 */
import type { AuthStatus } from '../../../contract/auth-status';
import type { ConfigSummary } from '../../../contract/configs';
import type { ReviewState } from '../../../contract/reviews';
import { offers } from '../../lib/permissions';

/** "In review · 1 of 2", "Changes requested", "Approved"; null when no review was asked for. */
export function describeReviewState(review: ReviewState | undefined): string | null {
  switch (review?.state) {
    case 'in_review':
      return review.approvals_required > 0
        ? `In review · ${review.approvals} of ${review.approvals_required}`
        : 'In review';
    case 'changes_requested':
      return 'Changes requested';
    case 'approved':
      return 'Approved';
    default:
      return null;
  }
}

/**
 * A draft waits for my review when it is in review, someone else asked for it, and my key may
 * give a verdict (config:publish).
 */
export function waitsForReviewBy(
  config: Pick<ConfigSummary, 'kind' | 'review'>,
  status: AuthStatus | undefined,
): boolean {
  const review = config.review;
  if (config.kind !== 'draft' || review?.state !== 'in_review') return false;
  if (!offers(status, 'config:publish')) return false;
  const me = status?.email;
  return me === undefined || review.requested_by !== me;
}
