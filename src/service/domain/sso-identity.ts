/**
 * What signing in through an OpenID provider is made of, shared by the relying party, the
 * browser routes and the domain: the identity the provider vouched for, the connection it
 * went through, the refusals a sign-in page says in words, and the role groups give.
 */
import type { Role } from '../../contract/auth-status';
import type { SignInError } from '../../contract/people';
import type { SsoConnection } from '../store/records';

/** What an identity provider said about the person, checked by the relying party. */
export interface VerifiedIdentity {
  readonly issuer: string;
  readonly subject: string;
  readonly email: string | undefined;
  readonly email_verified: boolean;
  readonly name: string | undefined;
  readonly groups: readonly string[];
}

/** The deployment's own connection (`OIDC_*`): it serves organizations without one. */
export interface DeploymentSso {
  readonly connection: SsoConnection;
  readonly clientSecret: string;
  /** `OIDC_JIT_ORGANIZATION`: who may join just-in-time through it. */
  readonly jitOrganizationId: string | undefined;
}

/** A connection chosen for a sign-in: an organization's own (its id), or the deployment's. */
export interface ChosenConnection {
  readonly organizationId: string | null;
  readonly connection: SsoConnection;
  readonly clientSecret: string;
  readonly generation: number;
}

/** A browser sign-in that failed, with the code the sign-in page says in words. */
export class SignInRefused extends Error {
  constructor(
    readonly code: SignInError,
    message: string,
  ) {
    super(message);
  }
}

const ROLE_STRENGTH: Readonly<Record<Role, number>> = { viewer: 0, editor: 1, admin: 2 };

/** The role groups give: the strongest mapped group's, else the default (which may refuse). */
export function roleFromGroups(
  groups: readonly string[],
  groupRoles: Readonly<Record<string, Role>>,
  defaultRole: Role | 'refuse',
): Role | 'refuse' {
  let best: Role | undefined;
  for (const group of groups) {
    // Own keys only: a group named "constructor" or "toString" must not find Object's.
    if (!Object.hasOwn(groupRoles, group)) continue;
    const role = groupRoles[group] as Role;
    if (best === undefined || ROLE_STRENGTH[role] > ROLE_STRENGTH[best]) best = role;
  }
  return best ?? defaultRole;
}
