/**
 * Which drafts of the config list wait for the caller's review. A list entry does not say
 * who approved, so the list cannot leave out a draft the caller has already approved: the
 * draft's page says that, and a second approval is refused in words.
 */
import type { AuthStatus } from '../../../contract/auth-status';
import type { ConfigSummary } from '../../../contract/configs';
import { offers } from '../../lib/permissions';

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
