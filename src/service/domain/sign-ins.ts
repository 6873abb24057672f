/**
 * Who signs in: a person with a local password, or an identity an OpenID provider vouched
 * for. People are matched on (issuer, subject), never on an email alone; an email links a
 * sign-in to a person, an invitation or a just-in-time join only when the provider verified
 * it. Every way ends in a session (domain/sessions.ts).
 */
import type { Role } from '../../contract/auth-status';
import type { SignInError, SignInOptions } from '../../contract/people';
import { newId } from '../ids';
import type {
  AuditRecord,
  InvitationRecord,
  OrganizationRecord,
  PersonRecord,
  SsoConnection,
  UserRecord,
} from '../store/records';
import { InvitationUnusable } from '../store/people/sign-ins';
import type { Store } from '../store/store';
import { newPerson } from './accounts';
import { hashSecret } from './api-key-secrets';
import { audit } from './audit';
import type { Clock } from './clock';
import { Refused } from './refusals';
import type { Sessions, StartedSession } from './sessions';

/** The password rules and hashing the service uses (domain/passwords.ts). */
export interface PasswordRules {
  /** Why a new password is refused, in words; undefined: it is fine. */
  problemWith(password: string, email: string): string | undefined;
  hash(password: string): Promise<string>;
  /** Whether `password` matches `stored`; with none stored, spends the same time and says no. */
  verify(stored: string | null, password: string): Promise<boolean>;
}

/** Failed sign-ins slow further tries down (domain/sign-in-throttle.ts). */
export interface SignInThrottle {
  /** Seconds to wait before trying again; undefined: go on. */
  wait(email: string, ip: string, now: Date): Promise<number | undefined>;
  failed(email: string, ip: string, now: Date): Promise<void>;
  succeeded(email: string, now: Date): Promise<void>;
}

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

export interface SignInClient {
  readonly ip: string | null;
  readonly userAgent: string | null;
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

export class SignIns {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly sessions: Sessions,
    private readonly passwords: PasswordRules,
    private readonly throttle: SignInThrottle,
    private readonly deploymentSso: DeploymentSso | undefined,
  ) {}

  /**
   * How someone with this email may sign in. A password is offered unless the domain's
   * organization turned it off, whether or not anyone uses the email: it tells no one who
   * is a member.
   */
  async options(email: string): Promise<SignInOptions> {
    const organization = await this.organizationOfDomain(email);
    if (organization) return { password: organization.password_sign_in, sso: true };
    return { password: true, sso: this.deploymentSso !== undefined };
  }

  /** The connection that serves a sign-in starting from an organization, an email or a link. */
  async connectionFor(start: {
    readonly organizationId?: string | undefined;
    readonly email?: string | undefined;
    readonly invitationToken?: string | undefined;
  }): Promise<ChosenConnection> {
    let organization: OrganizationRecord | undefined;
    if (start.invitationToken !== undefined) {
      const invitation = await this.pendingInvitation(start.invitationToken);
      organization = await organizationOfAccount(this.store, invitation.account_id);
    } else if (start.organizationId !== undefined) {
      organization = await this.store.getOrganization(start.organizationId);
    } else if (start.email !== undefined) {
      organization = await this.organizationOfDomain(start.email);
    }
    if (organization?.sso) {
      const secret = await this.store.getSsoSecret(organization.id);
      if (secret !== null) {
        return {
          organizationId: organization.id,
          connection: organization.sso,
          clientSecret: secret,
          generation: organization.sso_generation,
        };
      }
    }
    if (this.deploymentSso) {
      return {
        organizationId: null,
        connection: this.deploymentSso.connection,
        clientSecret: this.deploymentSso.clientSecret,
        generation: 0,
      };
    }
    throw new SignInRefused('no_connection', 'No identity provider serves this organization');
  }

  /** The connection a callback names (its organization, or null for the deployment's). */
  async connectionOf(organizationId: string | null): Promise<ChosenConnection> {
    if (organizationId === null) {
      if (!this.deploymentSso) throw new SignInRefused('no_connection', 'SSO is not set up');
      return this.connectionFor({});
    }
    const chosen = await this.connectionFor({ organizationId });
    if (chosen.organizationId !== organizationId) {
      throw new SignInRefused('stale_request', "The organization's connection changed");
    }
    return chosen;
  }

  async withPassword(
    email: string,
    password: string,
    client: SignInClient & { readonly ip: string },
  ): Promise<StartedSession> {
    const now = this.clock();
    const wait = await this.throttle.wait(email, client.ip, now);
    if (wait !== undefined) {
      throw new Refused(
        'too_many_tries',
        `Too many failed sign-ins: try again in ${wait} seconds`,
        { retryAfterSeconds: wait },
      );
    }
    const candidates = (await this.store.peopleByEmail(email)).filter(
      (person) => person.password_hash !== null,
    );
    let person: PersonRecord | undefined;
    for (const candidate of candidates) {
      if (await this.passwords.verify(candidate.password_hash, password)) {
        person = candidate;
        break;
      }
    }
    // Nobody with a password: the same work as a wrong one, so time tells nothing.
    if (candidates.length === 0) await this.passwords.verify(null, password);
    const membership = person && (await this.store.membershipsOf(person.id))[0];
    if (!person || !membership) {
      await this.throttle.failed(email, client.ip, now);
      await this.auditFailure(candidates[0], email, client, 'wrong_password');
      throw new Refused('sign_in_failed', 'The email or password is not right');
    }
    await this.throttle.succeeded(email, now);
    const organization = await this.store.getOrganization(person.organization_id);
    if (!organization?.password_sign_in) {
      throw new Refused(
        'not_permitted',
        'Your organization signs in with SSO only: use Continue with SSO',
      );
    }
    return this.sessions.startAndRead({ person, membership, method: 'password', ...client });
  }

  /**
   * A session for the identity the provider vouched for, through `chosen`: the person it
   * names, else the person of its verified email, else the invitation it accepts, else a
   * just-in-time member where the organization allows it.
   */
  async withIdentity(
    identity: VerifiedIdentity,
    chosen: ChosenConnection,
    client: SignInClient & { readonly invitationToken?: string; readonly idToken?: string },
  ): Promise<StartedSession> {
    const email = identity.email?.toLowerCase();
    const verifiedEmail = identity.email_verified && email !== undefined ? email : undefined;
    if (client.invitationToken !== undefined) {
      return this.acceptWithIdentity(identity, verifiedEmail, chosen, client);
    }
    const person =
      (await this.store.findPersonBySubject(identity.issuer, identity.subject)) ??
      (verifiedEmail && (await this.personToLink(verifiedEmail, chosen)));
    if (person) {
      if (
        !this.serves(
          chosen,
          person.organization_id,
          await this.store.getOrganization(person.organization_id),
        )
      ) {
        throw new SignInRefused(
          'not_a_member',
          'This identity provider does not serve your organization',
        );
      }
      const memberships = await this.store.membershipsOf(person.id);
      const membership = memberships[0];
      if (!membership)
        throw new SignInRefused('not_a_member', 'You are not a member of any account');
      const role = this.groupRole(identity, chosen);
      if (role === 'refuse') {
        throw new SignInRefused('not_a_member', 'Your groups give you no role here');
      }
      return this.start(identity, chosen, client, {
        person,
        membership,
        ...(person.issuer === null ? { link: true } : {}),
        ...(role !== undefined && role !== membership.role ? { role } : {}),
      });
    }
    if (!identity.email_verified) {
      throw new SignInRefused(
        'email_not_verified',
        'Your identity provider has not verified your email',
      );
    }
    return this.joinJustInTime(identity, verifiedEmail as string, chosen, client);
  }

  private async joinJustInTime(
    identity: VerifiedIdentity,
    email: string,
    chosen: ChosenConnection,
    client: SignInClient & { readonly idToken?: string },
  ): Promise<StartedSession> {
    const organizationId = chosen.organizationId ?? this.deploymentSso?.jitOrganizationId;
    const domainServed =
      chosen.organizationId === null || chosen.connection.email_domains.includes(domainOf(email));
    const allowed =
      chosen.organizationId === null ? organizationId !== undefined : chosen.connection.jit;
    if (!organizationId || !allowed || !domainServed) {
      throw new SignInRefused(
        'not_a_member',
        'Your organization does not know you yet: ask an admin for an invitation',
      );
    }
    const role = roleFromGroups(
      identity.groups,
      chosen.connection.group_roles,
      chosen.connection.default_role,
    );
    if (role === 'refuse')
      throw new SignInRefused('not_a_member', 'Your groups give you no role here');
    const accountId = await this.store.firstAccountOf(organizationId);
    if (!accountId)
      throw new SignInRefused('not_a_member', 'The organization has no account to join');
    const at = this.clock().toISOString();
    const person = {
      ...newPerson(newId('per_'), organizationId, email, at),
      name: identity.name ?? null,
    };
    const membership: UserRecord = {
      id: newId('usr_'),
      account_id: accountId,
      email,
      role,
      idp_user_id: identity.subject,
      created_at: at,
      person_id: person.id,
    };
    return this.start(identity, chosen, client, {
      person,
      membership,
      newPerson: true,
      newMembership: true,
      audits: [
        audit(accountId, at, 'member.join', { key: null, user: membership }, membership.id, {
          email,
          role,
          how: 'just_in_time',
        }),
      ],
    });
  }

  private async acceptWithIdentity(
    identity: VerifiedIdentity,
    verifiedEmail: string | undefined,
    chosen: ChosenConnection,
    client: SignInClient & { readonly invitationToken?: string; readonly idToken?: string },
  ): Promise<StartedSession> {
    const invitation = await this.pendingInvitation(client.invitationToken as string);
    if (verifiedEmail === undefined) {
      throw new SignInRefused(
        'email_not_verified',
        'Your identity provider has not verified your email',
      );
    }
    if (verifiedEmail !== invitation.email.toLowerCase()) {
      throw new SignInRefused(
        'not_a_member',
        `The invitation is for ${invitation.email}, not ${verifiedEmail}`,
      );
    }
    const organization = await organizationOfAccount(this.store, invitation.account_id);
    const bySubject = await this.store.findPersonBySubject(identity.issuer, identity.subject);
    if (bySubject && bySubject.organization_id !== organization.id) {
      throw new SignInRefused(
        'not_a_member',
        'This identity already belongs to another organization',
      );
    }
    const at = this.clock().toISOString();
    const existing =
      bySubject ?? (await this.store.findPersonByEmail(organization.id, verifiedEmail));
    const person = existing ?? {
      ...newPerson(newId('per_'), organization.id, verifiedEmail, at),
      name: identity.name ?? null,
    };
    const membership = await this.invitedMembership(invitation, person, at);
    return this.start(identity, chosen, client, {
      person,
      membership: membership.record,
      invitationId: invitation.id,
      ...(existing ? {} : { newPerson: true }),
      ...(existing?.issuer === null ? { link: true } : {}),
      ...(membership.isNew ? { newMembership: true } : {}),
      ...(!membership.isNew && membership.record.role !== invitation.role
        ? { role: invitation.role }
        : {}),
      audits: [invitationAccepted(invitation, membership.record, at)],
    });
  }

  /** The membership an invitation makes: the person's own in that account, or a new one. */
  async invitedMembership(
    invitation: InvitationRecord,
    person: PersonRecord,
    at: string,
  ): Promise<{ record: UserRecord; isNew: boolean }> {
    const current = await this.store.membershipOfPerson(invitation.account_id, person.id);
    if (current) return { record: current, isNew: false };
    return {
      isNew: true,
      record: {
        id: newId('usr_'),
        account_id: invitation.account_id,
        email: invitation.email,
        role: invitation.role,
        idp_user_id: person.subject ?? person.id,
        created_at: at,
        person_id: person.id,
      },
    };
  }

  /** An invitation that may still be accepted, by its link's token. */
  async pendingInvitation(token: string): Promise<InvitationRecord> {
    const invitation = await this.store.findInvitationByToken(hashSecret(token));
    if (!invitation || invitationStatus(invitation, this.clock()) !== 'pending') {
      throw new SignInRefused(
        'invitation_unusable',
        'The invitation link was used, revoked or has expired',
      );
    }
    return invitation;
  }

  private async start(
    identity: VerifiedIdentity,
    chosen: ChosenConnection,
    client: SignInClient & { readonly idToken?: string },
    plan: {
      readonly person: PersonRecord;
      readonly membership: UserRecord;
      readonly link?: boolean;
      readonly role?: Role;
      readonly newPerson?: boolean;
      readonly newMembership?: boolean;
      readonly invitationId?: string;
      readonly audits?: readonly AuditRecord[];
    },
  ): Promise<StartedSession> {
    const { person, membership } = plan;
    const { token, session } = this.sessions.newSession({
      person,
      membership,
      method: 'sso',
      ssoGeneration: chosen.generation,
      ...(client.idToken !== undefined ? { idToken: client.idToken } : {}),
      ip: client.ip,
      userAgent: client.userAgent,
    });
    const at = session.created_at;
    const actor = { key: null, user: membership, ...(client.ip ? { ip: client.ip } : {}) };
    const audits: AuditRecord[] = [...(plan.audits ?? [])];
    if (plan.role !== undefined) {
      audits.push(
        audit(membership.account_id, at, 'member.role_change', actor, membership.id, {
          email: membership.email,
          from: membership.role,
          to: plan.role,
          by: 'groups',
        }),
      );
    }
    audits.push(
      audit(membership.account_id, at, 'session.start', actor, session.id, {
        method: 'sso',
        email: person.email,
      }),
    );
    try {
      await this.store.recordSignIn({
        ...(plan.newPerson ? { newPerson: person } : {}),
        ...(plan.link
          ? {
              identity: { personId: person.id, issuer: identity.issuer, subject: identity.subject },
            }
          : {}),
        ...(plan.newMembership ? { membership } : {}),
        ...(plan.invitationId !== undefined ? { invitationId: plan.invitationId } : {}),
        ...(plan.role !== undefined ? { role: { userId: membership.id, role: plan.role } } : {}),
        session,
        name: identity.name ?? null,
        audits,
      });
    } catch (error) {
      if (error instanceof InvitationUnusable) {
        throw new SignInRefused(
          'invitation_unusable',
          'The invitation was used, revoked or has expired',
        );
      }
      throw error;
    }
    return { token, ...(await this.sessions.read(token)) };
  }

  /** The role the person's groups give through a connection that maps groups; else none. */
  private groupRole(
    identity: VerifiedIdentity,
    chosen: ChosenConnection,
  ): Role | 'refuse' | undefined {
    const { group_roles: groupRoles, default_role: defaultRole } = chosen.connection;
    if (Object.keys(groupRoles).length === 0) return undefined;
    return roleFromGroups(identity.groups, groupRoles, defaultRole);
  }

  /** Whether a connection may sign in people of an organization: its own, or the default for those without. */
  private serves(
    chosen: ChosenConnection,
    organizationId: string,
    organization: OrganizationRecord | undefined,
  ): boolean {
    if (chosen.organizationId !== null) return chosen.organizationId === organizationId;
    return organization !== undefined && organization.sso === null;
  }

  /** A person not yet linked to any provider whose verified email matches, in an organization the connection serves. */
  private async personToLink(
    email: string,
    chosen: ChosenConnection,
  ): Promise<PersonRecord | undefined> {
    if (chosen.organizationId !== null) {
      const person = await this.store.findPersonByEmail(chosen.organizationId, email);
      return person?.issuer === null ? person : undefined;
    }
    const unlinked = (await this.store.peopleByEmail(email)).filter(
      (person) => person.issuer === null,
    );
    for (const person of unlinked) {
      const organization = await this.store.getOrganization(person.organization_id);
      if (organization && organization.sso === null) return person;
    }
    return undefined;
  }

  private async organizationOfDomain(email: string): Promise<OrganizationRecord | undefined> {
    const domain = domainOf(email);
    return (await this.store.organizationsWithSso()).find((organization) =>
      organization.sso?.email_domains.includes(domain),
    );
  }

  private async auditFailure(
    person: PersonRecord | undefined,
    email: string,
    client: SignInClient,
    reason: string,
  ): Promise<void> {
    if (!person) return;
    const membership = (await this.store.membershipsOf(person.id))[0];
    if (!membership) return;
    const at = this.clock().toISOString();
    await this.store.addAuditRecord({
      ...audit(membership.account_id, at, 'sign_in.failed', null, membership.id, { email, reason }),
      ip: client.ip,
    });
  }
}

/** The organization an account belongs to (every account has one). */
export async function organizationOfAccount(
  store: Store,
  accountId: string,
): Promise<OrganizationRecord> {
  const account = await store.getAccount(accountId);
  const organization = account?.organization_id
    ? await store.getOrganization(account.organization_id)
    : undefined;
  if (!organization) throw new Error(`the account ${accountId} has no organization`);
  return organization;
}

/** What an invitation's state is at `now`. */
export function invitationStatus(
  invitation: InvitationRecord,
  now: Date,
): 'pending' | 'accepted' | 'revoked' | 'expired' {
  if (invitation.accepted_at !== null) return 'accepted';
  if (invitation.revoked_at !== null) return 'revoked';
  return Date.parse(invitation.expires_at) <= now.getTime() ? 'expired' : 'pending';
}

export function invitationAccepted(
  invitation: InvitationRecord,
  membership: UserRecord,
  at: string,
): AuditRecord {
  return audit(
    invitation.account_id,
    at,
    'invitation.accept',
    { key: null, user: membership },
    invitation.id,
    {
      email: invitation.email,
      role: invitation.role,
    },
  );
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
