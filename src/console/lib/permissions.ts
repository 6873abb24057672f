import type { AuthStatus, Permission } from '../../contract/auth-status';

/**
 * Whether to offer what needs `permission`. While the status is unknown, or on a server
 * that does not list permissions, everything is offered: the server refuses what is not
 * allowed (403), in words.
 */
export function offers(status: AuthStatus | undefined, permission: Permission): boolean {
  return status?.permissions === undefined || status.permissions.includes(permission);
}
