/**
 * Who signs in through an OpenID provider, and how anyone may sign in (the options a sign-in
 * page offers). People are matched on (issuer, subject), never on an email alone; an email
 * links a sign-in to a person, an invitation or a just-in-time join only when the provider
 * verified it. Passwords are password-sign-ins.ts's; both end in a session (sessions.ts).
 */
import type { Role } from '../../contract/auth-status';
import type { SignInOptions } from '../../contract/people';
import { newId } from '../ids';
import type {
  AuditRecord,
  InvitationRecord,
  OrganizationRecord,
  PersonRecord,
  UserRecord,
} from '../store/records';
import { InvitationUnusable } from '../store/people/sign-ins';
import type { Store } from '../store/store';
import { newPerson, organizationOfAccount } from './accounts';
import { invitationAccepted, invitationStatus, invitedMembership } from './invitation-links';
import {
  roleFromGroups,
  SignInRefused,
  type ChosenConnection,
  type DeploymentSso,
  type VerifiedIdentity,
} from './sso-identity';
import { hashSecret } from './api-key-secrets';
import { audit } from './audit';
import type { Clock } from './clock';
import type { Sessions, StartedSession } from './sessions';

export interface SignInClient {
  readonly ip: string | null;
  readonly userAgent: string | null;
}

export class SignIns {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly sessions: Sessions,
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
    const membership = await invitedMembership(this.store, invitation, person, at);
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
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
