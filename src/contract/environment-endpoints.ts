/**
 * The contract table's environment endpoints (docs/environments.md): the organization's
 * accounts, and changes scheduled to run at a time.
 */
import { configEditResultSchema } from './config-edit';
import { endpoint, namedEndpoints, problems } from './endpoint-kit';
import {
  accountListSchema,
  accountParamsSchema,
  accountSchema,
  createAccountSchema,
  createdAccountSchema,
  createScheduleSchema,
  scheduleListQuerySchema,
  scheduleListSchema,
  scheduleParamsSchema,
  scheduleSchema,
  organizationOwnerSchema,
  ownerParamsSchema,
  updateAccountSchema,
} from './environments';
import {
  promotionPreviewRequestSchema,
  promotionPreviewSchema,
  promotionRequestSchema,
} from './promotions';

export const environmentEndpoints = namedEndpoints({
  listAccounts: endpoint({
    method: 'GET',
    path: '/accounts',
    summary: "The accounts of the caller's organization the caller is a member of, with their role",
    description:
      'Production first, then staging, then development. A session needs no X-Account-Id here.',
    tag: 'environments',
    seed: false,
    auth: 'signed_in',
    permission: null,
    personLevel: true,
    responses: { 200: accountListSchema, ...problems(401, 403, 429, 503) },
  }),
  createAccount: endpoint({
    method: 'POST',
    path: '/accounts',
    summary: 'Create an account (an environment) in the organization; its creator is its admin',
    description:
      "Organization owners only (403 otherwise). copy_from starts it from a copy of another account's live config, and its first history entry says from where. 409 limit_reached past 20 accounts.",
    tag: 'environments',
    seed: false,
    auth: 'signed_in',
    permission: null,
    personLevel: true,
    body: createAccountSchema,
    bodyRequired: true,
    responses: {
      201: createdAccountSchema,
      ...problems(400, 401, 403, 404, 409, 413, 415, 429, 503),
    },
  }),
  updateAccount: endpoint({
    method: 'PATCH',
    path: '/accounts/{account_id}',
    summary: "Rename an account, or protect it (that account's admins)",
    tag: 'environments',
    seed: false,
    auth: 'signed_in',
    permission: null,
    params: accountParamsSchema,
    body: updateAccountSchema,
    bodyRequired: true,
    responses: { 200: accountSchema, ...problems(400, 401, 403, 404, 413, 415, 429, 503) },
  }),
  nameOrganizationOwner: endpoint({
    method: 'PUT',
    path: '/organization/owners/{user_id}',
    summary: 'Name a member of this account an owner of the organization (owners only)',
    description:
      'The person may then create accounts and act on any account of the organization; they become an admin of every one of them. 403 for a caller who is not an owner.',
    tag: 'environments',
    seed: false,
    auth: 'signed_in',
    permission: null,
    params: ownerParamsSchema,
    responses: { 200: organizationOwnerSchema, ...problems(401, 403, 404, 429, 503) },
  }),
  createSchedule: endpoint({
    method: 'POST',
    path: '/schedules',
    summary: 'Schedule a publish, or one A/B test step, to run at a time',
    description:
      'At its time (within 5 seconds, once across every instance, across restarts) it runs as the person who scheduled it would run it by hand then: their permission and the review policy are checked at that moment. When it cannot run, nothing changes and it ends failed with the reason in words, in the audit trail and as a schedule.failed webhook event.',
    tag: 'environments',
    seed: false,
    auth: 'signed_in',
    permission: 'config:publish',
    body: createScheduleSchema,
    bodyRequired: true,
    responses: {
      201: scheduleSchema,
      ...problems(400, 401, 403, 404, 409, 413, 415, 429, 503),
    },
  }),
  listSchedules: endpoint({
    method: 'GET',
    path: '/schedules',
    summary: "The account's scheduled changes, newest first, with their outcome",
    tag: 'environments',
    seed: false,
    auth: 'signed_in',
    permission: 'config:read',
    paged: true,
    query: scheduleListQuerySchema,
    responses: { 200: scheduleListSchema, ...problems(400, 401, 403, 429, 503) },
  }),
  cancelSchedule: endpoint({
    method: 'DELETE',
    path: '/schedules/{schedule_id}',
    summary: 'Cancel a pending scheduled change',
    description: '409 when it is no longer pending (it ran, failed or was cancelled).',
    tag: 'environments',
    seed: false,
    auth: 'signed_in',
    permission: 'config:publish',
    params: scheduleParamsSchema,
    responses: { 200: scheduleSchema, ...problems(401, 403, 404, 409, 429, 503) },
  }),
  previewPromotion: endpoint({
    method: 'POST',
    path: '/promotions/preview',
    summary: "What promoting a source's apps and A/B tests would change in a target account",
    description:
      'Item by item: the differences, the draft operations that make the chosen items of the target equal to the source, and what cannot travel with the reason. Needs a membership of both accounts and config:write in the target.',
    tag: 'environments',
    seed: false,
    auth: 'signed_in',
    permission: 'config:write',
    body: promotionPreviewRequestSchema,
    bodyRequired: true,
    responses: {
      200: promotionPreviewSchema,
      ...problems(400, 401, 403, 404, 413, 415, 429, 503),
    },
  }),
  createPromotion: endpoint({
    method: 'POST',
    path: '/promotions',
    summary: 'Promote: a draft in the target account made of the operations of the preview',
    description:
      "Answered like POST /config/edit. The draft is made from the target's live config as compared (412 if it changed since), its history names the source, and it then follows the target's merges, review policy and publish. 409 when nothing can travel.",
    tag: 'environments',
    seed: false,
    auth: 'signed_in',
    permission: 'config:write',
    body: promotionRequestSchema,
    bodyRequired: true,
    responses: {
      200: configEditResultSchema,
      ...problems(400, 401, 403, 404, 409, 412, 413, 415, 429, 503),
    },
  }),
});
