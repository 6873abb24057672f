/**
 * Environments: an organization's accounts (production, staging, development), each with its
 * own configs, keys, webhooks, policy and members; and changes scheduled to run at a time.
 */
import { operationSchema } from './operations';
import { pagedQuerySchema } from './pages';
import { roleSchema } from './auth-status';
import { timestampSchema } from './timestamp';
import { described, z } from './zod';

export const ACCOUNT_TYPES = ['production', 'staging', 'development'] as const;
export const accountTypeSchema = z
  .enum(ACCOUNT_TYPES)
  .register(z.globalRegistry, { id: 'AccountType' });
export type AccountType = z.infer<typeof accountTypeSchema>;

export const MAX_ACCOUNT_NAME_LENGTH = 100;
const accountName = described(
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(MAX_ACCOUNT_NAME_LENGTH, `at most ${MAX_ACCOUNT_NAME_LENGTH} characters`),
    ),
  'The environment\u2019s name, as people see it ("Production").',
);
const accountId = described(z.string().check(z.maxLength(100)), 'An account id (acc_…).');

export const accountSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    account_type: described(
      z.string(),
      'production, staging or development (other servers may name others)',
    ),
    protected: described(
      z.boolean(),
      'Whether the console asks a person to type the name before publishing, rolling back or stepping an A/B test here.',
    ),
    organization_id: z.string(),
    role: described(roleSchema, "The caller's role in this account."),
    created_at: timestampSchema(),
  })
  .register(z.globalRegistry, { id: 'Account' });
export type Account = z.infer<typeof accountSchema>;

export const accountListSchema = z.array(accountSchema);

export const createAccountSchema = z
  .strictObject({
    name: accountName,
    account_type: accountTypeSchema,
    copy_from: z.optional(
      described(accountId, "Start from a copy of this account's live config (same organization)."),
    ),
    protected: z.optional(described(z.boolean(), 'Default: true for production, else false.')),
  })
  .register(z.globalRegistry, { id: 'CreateAccount' });
export type CreateAccountRequest = z.infer<typeof createAccountSchema>;

export const createdAccountSchema = z
  .strictObject({
    ...accountSchema.shape,
    user_id: described(z.string(), "The creator's membership in the new account."),
    live_config_id: z.string(),
  })
  .register(z.globalRegistry, { id: 'CreatedAccount' });
export type CreatedAccountAnswer = z.infer<typeof createdAccountSchema>;

export const updateAccountSchema = z
  .strictObject({
    name: z.optional(accountName),
    protected: z.optional(z.boolean()),
  })
  .register(z.globalRegistry, { id: 'UpdateAccount', minProperties: 1 })
  .check(
    z.refine(
      (update) => Object.keys(update).length > 0,
      'name the fields to change: name, protected',
    ),
  );

export const accountParamsSchema = z.strictObject({ account_id: accountId });

/** `PUT /organization/owners/{user_id}`: a member of this account named an owner. */
export const organizationOwnerSchema = z
  .strictObject({
    user_id: z.string(),
    email: z.string(),
    accounts: described(
      z.array(z.string()),
      'Every account of the organization: the owner is an admin of each.',
    ),
  })
  .register(z.globalRegistry, { id: 'OrganizationOwner' });
export type OrganizationOwner = z.infer<typeof organizationOwnerSchema>;
export const ownerParamsSchema = z.strictObject({ user_id: z.string().check(z.maxLength(100)) });

/** Scheduled changes. */
export const SCHEDULE_ACTIONS = ['publish', 'ab_test'] as const;
export const SCHEDULE_STATUSES = ['pending', 'running', 'done', 'failed', 'cancelled'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];
/** How far ahead a change may be scheduled. */
export const MAX_SCHEDULE_AHEAD_DAYS = 366;

export const createScheduleSchema = z
  .strictObject({
    at: described(timestampSchema(), 'When to run: in the future, within a year.'),
    config_id: described(
      z.string().check(z.maxLength(100)),
      'The draft to publish, or the config whose A/B test steps.',
    ),
    action: z.enum(SCHEDULE_ACTIONS),
    operations: z.optional(
      described(
        z.array(operationSchema).check(z.minLength(1), z.maxLength(1, 'exactly one operation')),
        'For ab_test: the one lifecycle operation to run (start, end, promote, update or delete a test).',
      ),
    ),
    summary: z.optional(z.string().check(z.maxLength(500))),
  })
  .register(z.globalRegistry, { id: 'CreateSchedule' });
export type CreateScheduleRequest = z.infer<typeof createScheduleSchema>;

export const scheduleSchema = z
  .strictObject({
    id: z.string(),
    account_id: z.string(),
    config_id: z.string(),
    action: z.enum(SCHEDULE_ACTIONS),
    operations: z.optional(z.array(operationSchema)),
    summary: z.nullable(z.string()),
    at: timestampSchema(),
    status: described(
      z.enum(SCHEDULE_STATUSES),
      'pending until it runs; running while an instance runs it; then done, failed (with its reason) or cancelled.',
    ),
    reason: described(z.nullable(z.string()), 'Why it failed, in words; null otherwise.'),
    result_config_id: described(
      z.nullable(z.string()),
      'The config the change made live, once done.',
    ),
    scheduled_by: z.strictObject({
      user_id: z.string(),
      email: z.string(),
      api_key_id: z.nullable(z.string()),
    }),
    created_at: timestampSchema(),
    finished_at: z.nullable(timestampSchema()),
  })
  .register(z.globalRegistry, { id: 'Schedule' });
export type Schedule = z.infer<typeof scheduleSchema>;

export const scheduleListSchema = z.array(scheduleSchema);
export const scheduleListQuerySchema = pagedQuerySchema({
  status: z.optional(z.enum(SCHEDULE_STATUSES)),
  config_id: z.optional(z.string().check(z.maxLength(100))),
});
export const scheduleParamsSchema = z.strictObject({
  schedule_id: z.string().check(z.maxLength(100)),
});
