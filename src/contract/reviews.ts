/**
 * Review before publishing (docs/api.md): the account's policy, the review state of a draft,
 * review requests, and reviews (approve, request changes, comment, perhaps on a line).
 */
import { described, wholeNumber, z } from './zod';
import { timestampSchema } from './timestamp';

export const MAX_APPROVALS_REQUIRED = 5;
/** The longest review body or review request note, in characters (UTF-16 code units). */
export const MAX_REVIEW_BODY_LENGTH = 5_000;

// Strict: the same shape is a request body and a response.
export const accountPolicySchema = z
  .strictObject({
    approvals_required: described(
      z.number().check(z.int(), z.minimum(0), z.maximum(MAX_APPROVALS_REQUIRED)),
      'Approvals by others a draft needs before it is published; 0: none, anyone with config:publish publishes',
    ),
    reset_approvals_on_edit: described(
      z.boolean(),
      'True: an approval counts only for the revision it was given on, so an edit sends an approved draft back to in_review with 0 approvals. False: approvals carry over edits',
    ),
  })
  .register(z.globalRegistry, {
    id: 'AccountPolicy',
    description: "The account's rules for publishing drafts.",
  });
export type AccountPolicy = z.infer<typeof accountPolicySchema>;

/** What an account without a policy of its own gets: no review, anyone may publish. */
export const DEFAULT_ACCOUNT_POLICY: AccountPolicy = {
  approvals_required: 0,
  reset_approvals_on_edit: true,
};

export const REVIEW_STATES = ['none', 'in_review', 'approved', 'changes_requested'] as const;
export type ReviewStateName = (typeof REVIEW_STATES)[number];

export const reviewStateSchema = z
  .object({
    state: described(
      z.enum(REVIEW_STATES),
      'none: no review was requested (always, for a published config); in_review: waiting for approvals; approved: enough approvals (at least one) by others count; changes_requested: a reviewer asked for changes on the current revision',
    ),
    approvals: described(wholeNumber(0), 'Approvals by others that count now'),
    approvals_required: described(wholeNumber(0), "The account policy's approvals_required"),
    requested_by: described(z.optional(z.string()), 'Who requested the review (an e-mail)'),
    requested_at: described(z.optional(timestampSchema()), 'When the review was last requested'),
    publish_on_approval: described(
      z.optional(z.boolean()),
      'True: the server publishes the draft when the last approval arrives (if it is valid)',
    ),
  })
  .register(z.globalRegistry, {
    id: 'ReviewState',
    description: 'Where a draft stands in its review.',
  });
export type ReviewState = z.infer<typeof reviewStateSchema>;

const reviewText = (description: string) =>
  described(z.optional(z.string().check(z.maxLength(MAX_REVIEW_BODY_LENGTH))), description);

/** `POST /configs/{id}/review-request`; the body may be omitted. */
export const reviewRequestSchema = z
  .object({
    note: reviewText('For the reviewers; kept in the history'),
    publish_on_approval: described(
      z.optional(z.boolean()),
      'True: publish the draft the moment the last approval it needs arrives, if it is valid then. Default false',
    ),
  })
  .register(z.globalRegistry, { id: 'ReviewRequest' });
export type ReviewRequest = z.infer<typeof reviewRequestSchema>;

export const REVIEW_VERDICTS = ['approve', 'request_changes', 'comment'] as const;
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

const verdictSchema = () =>
  described(
    z.enum(REVIEW_VERDICTS),
    'approve and request_changes need config:publish; comment needs config:read',
  );

/** `POST /configs/{id}/reviews`. */
export const newReviewSchema = z
  .object({
    verdict: verdictSchema(),
    body: reviewText('What the reviewer says; a comment needs one'),
    line: described(
      z.optional(wholeNumber(1)),
      "A line of the draft's YAML at its current revision that the review is about",
    ),
  })
  .check(
    z.refine((review) => review.verdict !== 'comment' || (review.body ?? '').trim() !== '', {
      message: 'a comment needs a body',
      path: ['body'],
    }),
  )
  .register(z.globalRegistry, { id: 'NewReview' });
export type NewReview = z.infer<typeof newReviewSchema>;

export const reviewSchema = z
  .object({
    id: z.string(),
    verdict: verdictSchema(),
    body: described(z.string(), 'Empty when none was given'),
    line: described(z.optional(wholeNumber(1)), 'The line of that revision it is about'),
    revision: described(wholeNumber(1), "The draft's revision it was given on"),
    by: described(z.string(), "The reviewer's e-mail"),
    at: timestampSchema(),
  })
  .register(z.globalRegistry, { id: 'Review', description: 'One step of a review.' });
export type Review = z.infer<typeof reviewSchema>;

/** `GET /configs/{id}/reviews`: oldest first. */
export const reviewListSchema = z
  .array(reviewSchema)
  .register(z.globalRegistry, { id: 'ReviewList' });
export type ReviewList = z.infer<typeof reviewListSchema>;

export const reviewResultSchema = z
  .object({
    review: reviewSchema,
    /** The draft's review state after this review. */
    config_review: reviewStateSchema,
    published_config_id: described(
      z.optional(z.string()),
      'Set when this approval published the draft (publish_on_approval): the new live config',
    ),
  })
  .register(z.globalRegistry, { id: 'ReviewResult' });
export type ReviewResult = z.infer<typeof reviewResultSchema>;
