/**
 * What a draft's review state means, in words: the line under the page's heading and in
 * the config list, why Publish waits, and why a key may not give a verdict.
 */
import type { ReviewState } from '../../../../contract/reviews';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * "In review · 1 of 2 approvals", "Changes requested", "Approved"; null: no review. `short`
 * for the list's narrow column: "In review · 1 of 2".
 */
export function reviewStatusOf(
  review: ReviewState | undefined,
  { short = false }: { short?: boolean } = {},
): string | null {
  switch (review?.state) {
    case 'in_review': {
      if (review.approvals_required === 0) return 'In review';
      const tally = short
        ? `${review.approvals} of ${review.approvals_required}`
        : `${review.approvals} of ${plural(review.approvals_required, 'approval')}`;
      return `In review · ${tally}`;
    }
    case 'changes_requested':
      return 'Changes requested';
    case 'approved':
      return 'Approved';
    default:
      return null;
  }
}

/** Why publishing would be refused for approvals, or null when they are not what is missing. */
export function publishBlockOf(review: ReviewState | undefined): string | null {
  if (!review || review.approvals_required === 0) return null;
  if (review.state === 'changes_requested') {
    return 'Changes were requested on this revision: edit the draft, then ask for approval again.';
  }
  const missing = review.approvals_required - review.approvals;
  if (missing <= 0) return null;
  const tally = `${review.approvals} of ${review.approvals_required}.`;
  const ask = review.state === 'none' ? ' Request a review first.' : '';
  return `Needs ${plural(missing, 'more approval')}: ${tally}${ask}`;
}

/** Why this key may not give each verdict; null where it may. */
export function verdictBlocksOf({
  review,
  canPublish,
  email,
}: {
  review: ReviewState | undefined;
  canPublish: boolean;
  /** The key's e-mail, when it has one. */
  email: string | undefined;
}): { approve: string | null; requestChanges: string | null } {
  let both: string | null = null;
  if (!canPublish) both = 'Approving and requesting changes need the config:publish permission.';
  else if (!review || review.state === 'none') both = 'No review of this draft was requested yet.';
  if (both !== null) return { approve: both, requestChanges: both };
  // Whoever asked for the review is taken for the author; the server has the last word.
  const own =
    email !== undefined && review?.requested_by === email
      ? 'You asked for this review: someone else approves your draft.'
      : null;
  return { approve: own, requestChanges: null };
}
