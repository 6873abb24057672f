/**
 * People, sessions, members and invitations (docs/people.md): how a person signs in, the
 * server-side session that follows, who belongs to an account and how they are invited.
 * The browser never holds a token: a session is an HttpOnly cookie the service checks.
 */
import { roleSchema } from './auth-status';
import { pagedQuerySchema } from './pages';
import { timestampSchema } from './timestamp';
import { described, z } from './zod';

/** NIST 800-63B for a password used alone: at least 15 characters; at most 128. */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
/** Invitations are valid this long. */
export const INVITATION_VALID_DAYS = 7;
/** What an organization may set, and the defaults (idle 30 minutes, 12 hours in all). */
export const SESSION_IDLE_MINUTES = { min: 5, max: 24 * 60, default: 30 } as const;
export const SESSION_MAX_HOURS = { min: 1, max: 7 * 24, default: 12 } as const;

/**
 * Why a browser sign-in failed: the console's sign-in page gets `?error=<code>` and says it
 * in words, with a way back.
 */
export const SIGN_IN_ERRORS = [
  'idp_error',
  'stale_request',
  'email_not_verified',
  'not_a_member',
  'no_connection',
  'invitation_unusable',
  'sso_disabled',
] as const;
export type SignInError = (typeof SIGN_IN_ERRORS)[number];

export const SIGN_IN_METHODS = ['password', 'sso', 'api_key'] as const;
export const signInMethodSchema = z.enum(SIGN_IN_METHODS);
export type SignInMethod = z.infer<typeof signInMethodSchema>;

const emailSchema = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.minLength(3), z.maxLength(EMAIL_MAX_LENGTH), z.email());

export const passwordSignInRequestSchema = z
  .strictObject({
    email: emailSchema,
    // Length is judged after NFKC normalization, by the service; the bounds here only
    // keep a huge body out.
    password: z.string().check(z.minLength(1), z.maxLength(4 * PASSWORD_MAX_LENGTH)),
  })
  .register(z.globalRegistry, { id: 'PasswordSignInRequest' });
export type PasswordSignInRequest = z.infer<typeof passwordSignInRequestSchema>;

export const signInQuerySchema = z.strictObject({
  org: described(z.optional(z.string().check(z.maxLength(100))), 'The organization id'),
  email: described(
    z.optional(emailSchema),
    'A work email: its domain names the organization (Continue with SSO)',
  ),
  invitation: described(
    z.optional(z.string().check(z.maxLength(200))),
    'An invitation token: signing in accepts it (the verified email must match)',
  ),
  return_to: described(
    z.optional(z.string().check(z.maxLength(2000), z.startsWith('/'))),
    'A path of the console to go back to; anything else is ignored',
  ),
});

/**
 * The identity provider's redirect back: either a code and state, or an error. Not strict:
 * providers add parameters of their own (Google's `scope` and `authuser`, `session_state`).
 */
export const signInCallbackQuerySchema = z.object({
  code: z.optional(z.string().check(z.maxLength(4096))),
  state: z.optional(z.string().check(z.maxLength(512))),
  iss: z.optional(z.string().check(z.maxLength(2048))),
  error: z.optional(z.string().check(z.maxLength(200))),
  error_description: z.optional(z.string().check(z.maxLength(2000))),
});

/** What a sign-in page is told about an email before asking for a password. */
export const signInOptionsSchema = z
  .object({
    password: described(z.boolean(), 'A password may be used'),
    sso: described(z.boolean(), 'Continue with SSO leads to an identity provider'),
  })
  .register(z.globalRegistry, { id: 'SignInOptions' });
export type SignInOptions = z.infer<typeof signInOptionsSchema>;

export const signOutResultSchema = z
  .object({
    idp_logout_url: described(
      z.optional(z.string()),
      "The identity provider's sign-out page, to end the session there too",
    ),
  })
  .register(z.globalRegistry, { id: 'SignOutResult' });

export const sessionSchema = z
  .object({
    id: described(z.string(), 'A public id, never the cookie'),
    created_at: timestampSchema(),
    last_seen_at: timestampSchema(),
    expires_at: described(timestampSchema(), 'The earlier of the idle and absolute expiry'),
    ip: z.nullable(z.string()),
    user_agent: z.nullable(z.string()),
    method: signInMethodSchema,
    current: described(z.boolean(), 'The session this request came with'),
  })
  .register(z.globalRegistry, { id: 'Session' });
export type Session = z.infer<typeof sessionSchema>;
export const sessionListSchema = z
  .array(sessionSchema)
  .register(z.globalRegistry, { id: 'SessionList' });

export const sessionIdParamsSchema = z.object({ id: z.string().check(z.maxLength(100)) });
export const endedSessionsSchema = z
  .object({ ended: described(z.number(), 'How many sessions were ended') })
  .register(z.globalRegistry, { id: 'EndedSessions' });

export const MEMBER_SIGN_INS = ['password', 'sso', 'none'] as const;
export const memberSchema = z
  .object({
    user_id: z.string(),
    email: z.string(),
    name: z.nullable(z.string()),
    role: roleSchema,
    sign_in: described(
      z.enum(MEMBER_SIGN_INS),
      'How they sign in; none: only with API keys (no password set, never signed in with SSO)',
    ),
    last_sign_in_at: z.nullable(timestampSchema()),
    status: described(z.enum(['active']), 'Removed members are not listed'),
    organization_owner: described(
      z.boolean(),
      "Whether this person owns the account's organization: they create accounts, name owners and are an admin of every account",
    ),
  })
  .register(z.globalRegistry, { id: 'Member' });
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z
  .array(memberSchema)
  .register(z.globalRegistry, { id: 'MemberList' });
export const memberParamsSchema = z.object({ user_id: z.string().check(z.maxLength(100)) });
export const memberUpdateSchema = z
  .strictObject({ role: roleSchema })
  .register(z.globalRegistry, { id: 'MemberUpdate' });

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
const invitationFields = {
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  status: z.enum(INVITATION_STATUSES),
  created_at: timestampSchema(),
  expires_at: timestampSchema(),
};
export const invitationSchema = z
  .object(invitationFields)
  .register(z.globalRegistry, { id: 'Invitation' });
export type Invitation = z.infer<typeof invitationSchema>;
export const createdInvitationSchema = z
  .object({
    ...invitationFields,
    link: described(z.string(), 'The one-time link, shown in this response only'),
  })
  .register(z.globalRegistry, { id: 'CreatedInvitation' });
export type CreatedInvitation = z.infer<typeof createdInvitationSchema>;
export const invitationListSchema = z
  .array(invitationSchema)
  .register(z.globalRegistry, { id: 'InvitationList' });
export const invitationListQuerySchema = pagedQuerySchema({});
export const createInvitationSchema = z
  .strictObject({ email: emailSchema, role: roleSchema })
  .register(z.globalRegistry, { id: 'CreateInvitation' });
export const invitationIdParamsSchema = z.object({ id: z.string().check(z.maxLength(100)) });
export const invitationTokenParamsSchema = z.object({
  token: z.string().check(z.maxLength(200)),
});
/** What the link's page shows before the person accepts. */
export const invitationPreviewSchema = z
  .object({
    email: z.string(),
    role: roleSchema,
    account_name: z.string(),
    organization_name: z.string(),
    status: z.enum(INVITATION_STATUSES),
    expires_at: timestampSchema(),
    password_sign_in: described(z.boolean(), 'A password may be set'),
    sso: described(z.boolean(), 'Signing in with SSO is offered'),
  })
  .register(z.globalRegistry, { id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;
export const acceptInvitationSchema = z
  .strictObject({
    password: described(
      z.optional(z.string().check(z.minLength(1), z.maxLength(4 * PASSWORD_MAX_LENGTH))),
      'A new local password; leave out after signing in with SSO',
    ),
    name: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  })
  .register(z.globalRegistry, { id: 'AcceptInvitation' });

export const DEFAULT_ROLE_REFUSE = 'refuse';
const ssoFields = {
  issuer: z.url().check(z.maxLength(2000)),
  client_id: z.string().check(z.minLength(1), z.maxLength(500)),
  email_domains: described(
    z
      .array(z.string().check(z.toLowerCase(), z.regex(/^[a-z0-9.-]+\.[a-z]{2,}$/)))
      .check(z.maxLength(50)),
    'The work email domains it serves (Continue with SSO finds the organization by them)',
  ),
  groups_claim: described(z.string().check(z.maxLength(200)), 'The claim holding groups'),
  group_roles: described(
    z.record(z.string().check(z.maxLength(500)), roleSchema),
    'Group name -> role; the strongest role of the groups a person is in applies',
  ),
  default_role: described(
    z.union([roleSchema, z.literal(DEFAULT_ROLE_REFUSE)]),
    'The role of a person in no mapped group, or refuse',
  ),
  jit: described(z.boolean(), 'People of these domains may join just-in-time'),
};
export const ssoSettingsSchema = z
  .object({
    ...ssoFields,
    client_secret_set: described(z.boolean(), 'The secret is write-only: only whether it is set'),
  })
  .register(z.globalRegistry, { id: 'SsoSettings' });
export const ssoSettingsUpdateSchema = z
  .strictObject({
    ...ssoFields,
    client_secret: described(
      z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
      'Write-only; left out keeps the secret set before',
    ),
  })
  .register(z.globalRegistry, { id: 'SsoSettingsUpdate' });

const sessionLengths = {
  session_idle_minutes: z
    .number()
    .check(z.int(), z.minimum(SESSION_IDLE_MINUTES.min), z.maximum(SESSION_IDLE_MINUTES.max)),
  session_max_hours: z
    .number()
    .check(z.int(), z.minimum(SESSION_MAX_HOURS.min), z.maximum(SESSION_MAX_HOURS.max)),
  password_sign_in: described(z.boolean(), 'People may sign in with a local password'),
};
export const organizationSettingsSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    ...sessionLengths,
    sso: z.nullable(ssoSettingsSchema),
  })
  .register(z.globalRegistry, { id: 'OrganizationSettings' });
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;
export const organizationSettingsUpdateSchema = z
  .strictObject({ ...sessionLengths, sso: z.nullable(ssoSettingsUpdateSchema) })
  .register(z.globalRegistry, { id: 'OrganizationSettingsUpdate' });
export type OrganizationSettingsUpdate = z.infer<typeof organizationSettingsUpdateSchema>;
