import type { ReviewState } from '../../../../contract/reviews';
import { reviewStatusOf } from './review-state';

/** The draft's review state, under its heading; nothing when no review was asked for. */
export function ReviewStatus({ review }: { review: ReviewState | undefined }) {
  const status = reviewStatusOf(review);
  if (status === null) return null;
  return (
    <p className="config-meta review-status">
      <strong>{status}</strong>
      {review?.requested_by !== undefined && <span>{` · asked by ${review.requested_by}`}</span>}
      {review?.publish_on_approval && <span> · publishes when approved</span>}
    </p>
  );
}
