/**
 * `GET /auth/status` and the permission model behind it (docs/api.md).
 */
import { described, z } from './zod';
import { timestampSchema } from './timestamp';

/** What a key may do. */
export const PERMISSIONS = [
  'config:read',
  'config:write',
  'config:publish',
  'api_keys:manage',
  'audit:read',
  'members:manage',
  'client_keys:manage',
  'webhooks:manage',
  'policy:manage',
] as const;
export const permissionSchema = z.enum(PERMISSIONS).register(z.globalRegistry, {
  id: 'Permission',
  description:
    'config:read reads configs; config:write edits drafts; config:publish publishes, activates and runs A/B test lifecycle steps; api_keys:manage manages the account API keys; audit:read reads and exports the audit trail; members:manage manages members, invitations, sessions of others and the sign-in settings; client_keys:manage, webhooks:manage and policy:manage manage client keys, webhooks and the review policy.',
});
export type Permission = z.infer<typeof permissionSchema>;

export const ROLES = ['admin', 'editor', 'viewer'] as const;
export const roleSchema = z.enum(ROLES).register(z.globalRegistry, { id: 'Role' });
export type Role = z.infer<typeof roleSchema>;

/** A user's role bounds the permissions of every key the user creates. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  admin: PERMISSIONS,
  editor: ['config:read', 'config:write'],
  viewer: ['config:read'],
};

export const AUTH_TYPES = ['api_key'] as const;

/**
 * Only `idp_organization_id` is required. `role` and `permissions` stay plain strings:
 * other servers of this API may name others, and a client must not reject a status that
 * names a role or permission it does not know; it simply does not offer what needs it.
 */
/** An optional field, described when `description` is given. */
const optional = <T extends z.ZodMiniType>(schema: T, description?: string) =>
  description === undefined ? z.optional(schema) : described(z.optional(schema), description);

export const authStatusSchema = z
  .object({
    idp_organization_id: described(z.string(), 'Organization id at the identity provider'),
    auth_type: optional(z.enum(AUTH_TYPES)),
    email: optional(z.string(), "Caller's e-mail address"),
    idp_user_id: optional(z.string(), 'User id at the identity provider'),
    account_id: optional(z.string()),
    user_id: optional(z.string()),
    session_id: optional(z.string(), 'Present in a session (a public id, never the cookie)'),
    session_method: optional(
      z.string(),
      'How the session was started: password, sso or api_key (a key exchanged for a session)',
    ),
    session_max_expires_at: optional(
      timestampSchema(),
      'When the session ends whatever the activity; expires_at is the earlier of this and the idle expiry',
    ),
    name: optional(z.string(), "The person's name, where known"),
    organization_id: optional(z.string()),
    organization_name: optional(z.string()),
    sign_in_name: optional(
      z.string(),
      'What the person signed in with, in words: the SSO connection or "password"',
    ),
    role: optional(z.string(), 'admin, editor or viewer on this server'),
    expires_at: optional(
      timestampSchema(),
      'Expiry of the session (the earlier of idle and absolute) or of the key, ISO 8601 UTC; absent when a key never expires',
    ),
    api_key_id: optional(z.string(), 'Present when authenticated by API key'),
    api_key_name: optional(z.string()),
    api_key_obfuscated_value: optional(z.string(), 'Masked form of the key, e.g. sk_…a1b2'),
    account_type: optional(z.string()),
    permissions: optional(
      z.array(z.string()),
      'Permission names; on this server the values of Permission',
    ),
    organization_owner: optional(z.boolean(), "Whether the caller's person owns the organization"),
  })
  .register(z.globalRegistry, {
    id: 'AuthStatus',
    description: 'Who the caller is and the state of their session or API key.',
  });

export type AuthStatus = z.infer<typeof authStatusSchema>;

/** Whether a status grants a permission; false when the server did not say. */
export function hasPermission(
  status: Pick<AuthStatus, 'permissions'>,
  permission: Permission,
): boolean {
  return status.permissions?.includes(permission) ?? false;
}
