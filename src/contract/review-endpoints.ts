/** The contract table's review endpoints: review requests, reviews, the account's policy (docs/api.md). */
import { configIdParamsSchema, configRecordSchema } from './configs';
import type { Permission } from './auth-status';
import { endpoint, namedEndpoints, problems } from './endpoint-kit';
import { pagedQuerySchema } from './pages';
import {
  accountPolicySchema,
  newReviewSchema,
  reviewListSchema,
  reviewRequestSchema,
  reviewResultSchema,
  type NewReview,
} from './reviews';

/** The permission a review needs: a verdict is a say on publishing, a comment is not. */
export function permissionForReview(review: Pick<NewReview, 'verdict'>): Permission {
  return review.verdict === 'comment' ? 'config:read' : 'config:publish';
}

export const reviewEndpoints = namedEndpoints({
  requestReview: endpoint({
    method: 'POST',
    path: '/configs/{id}/review-request',
    summary: 'Ask for a review of a draft; it goes in_review',
    description:
      'Asking again keeps the approvals that count and replaces the note and publish_on_approval. Refused with 409 for a published config.',
    tag: 'reviews',
    seed: false,
    auth: 'signed_in',
    permission: 'config:write',
    params: configIdParamsSchema,
    body: reviewRequestSchema,
    bodyRequired: false,
    etag: true,
    responses: {
      200: configRecordSchema,
      ...problems(400, 401, 403, 404, 409, 413, 415, 429, 503),
    },
  }),
  addReview: endpoint({
    method: 'POST',
    path: '/configs/{id}/reviews',
    summary: 'Approve a draft, request changes, or comment on it',
    description:
      "A comment needs config:read, a verdict config:publish. 403 own_draft: the draft's author approves it; 409 review_not_requested, already_approved, or a published config; 422 line_not_found. With publish_on_approval, the last approval needed publishes the draft.",
    tag: 'reviews',
    seed: false,
    auth: 'signed_in',
    permission: {
      cases: [
        { permission: 'config:read', when: 'a comment' },
        { permission: 'config:publish', when: 'a verdict (approve, request_changes)' },
      ],
      of: permissionForReview,
    },
    params: configIdParamsSchema,
    body: newReviewSchema,
    bodyRequired: true,
    responses: {
      201: reviewResultSchema,
      ...problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
    },
  }),
  listReviews: endpoint({
    method: 'GET',
    path: '/configs/{id}/reviews',
    summary: "A draft's reviews, oldest first",
    description: 'For a published config: the reviews of the draft it was published from, if any.',
    tag: 'reviews',
    seed: false,
    auth: 'signed_in',
    permission: 'config:read',
    params: configIdParamsSchema,
    paged: true,
    query: pagedQuerySchema({}),
    responses: { 200: reviewListSchema, ...problems(400, 401, 403, 404, 429, 503) },
  }),
  getAccountPolicy: endpoint({
    method: 'GET',
    path: '/account/policy',
    summary: "The account's rules for publishing drafts",
    tag: 'account',
    seed: false,
    auth: 'signed_in',
    permission: 'config:read',
    responses: { 200: accountPolicySchema, ...problems(401, 403, 429, 503) },
  }),
  setAccountPolicy: endpoint({
    method: 'PUT',
    path: '/account/policy',
    summary: "Replace the account's rules for publishing drafts",
    description: 'Applies at once to every draft, in review or not.',
    tag: 'account',
    seed: false,
    auth: 'signed_in',
    permission: 'policy:manage',
    body: accountPolicySchema,
    bodyRequired: true,
    responses: { 200: accountPolicySchema, ...problems(400, 401, 403, 413, 415, 429, 503) },
  }),
});
