/**
 * Invitations: an admin invites an email with a role and passes the one-time link on (the
 * service sends no email). The link's holder becomes a member by setting a password, by
 * signing in with SSO as that verified email, or, signed in already, by accepting it.
 */
import { randomBytes } from 'node:crypto';
import type { Role } from '../../contract/auth-status';
import {
  INVITATION_VALID_DAYS,
  type Invitation,
  type InvitationPreview,
} from '../../contract/people';
import { newId } from '../ids';
import type { Page, PageRequest } from '../store/pages';
import { mapPage } from '../store/pages';
import { InvitationUnusable } from '../store/people/sign-ins';
import type { InvitationRecord, PersonRecord, Principal } from '../store/records';
import type { Store } from '../store/store';
import { newPerson, organizationOfAccount } from './accounts';
import { hashSecret } from './api-key-secrets';
import { audit } from './audit';
import type { Clock } from './clock';
import { notFound, Refused } from './refusals';
import type { Sessions, StartedSession } from './sessions';
import type { PasswordRules } from './password-sign-ins';
import type { SignInClient, SignIns } from './sign-ins';
import { invitationAccepted, invitationStatus, invitedMembership } from './invitation-links';

const DAY_MS = 86_400_000;

export class Invitations {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly sessions: Sessions,
    private readonly signIns: SignIns,
    private readonly passwords: PasswordRules,
  ) {}

  /** A new invitation and its link's token, shown once. */
  async create(
    principal: Principal,
    request: { readonly email: string; readonly role: Role },
  ): Promise<{ invitation: Invitation; token: string }> {
    const accountId = principal.account.id;
    const email = request.email.toLowerCase();
    if (await this.store.membershipByEmail(accountId, email)) {
      throw new Refused('conflict', `${email} is already a member of this account`);
    }
    const { record, token } = await createInvitation(this.store, {
      accountId,
      email,
      role: request.role,
      by: principal,
      now: this.clock(),
    });
    return { invitation: this.toInvitation(record), token };
  }

  async list(principal: Principal, page: PageRequest): Promise<Page<Invitation>> {
    const invitations = await this.store.listInvitations(principal.account.id, page);
    return mapPage(invitations, (record) => this.toInvitation(record));
  }

  async revoke(principal: Principal, id: string): Promise<Invitation> {
    const accountId = principal.account.id;
    const at = this.clock().toISOString();
    const record = await this.store.revokeInvitation(
      accountId,
      id,
      at,
      audit(accountId, at, 'invitation.revoke', principal, id, {}),
    );
    if (!record) throw notFound(`The invitation ${id}`);
    return this.toInvitation(record);
  }

  /** What the link's page shows; 404 for a token that names no invitation. */
  async preview(token: string): Promise<InvitationPreview> {
    const record = await this.store.findInvitationByToken(hashSecret(token));
    if (!record) throw notFound('The invitation');
    const account = await this.store.getAccount(record.account_id);
    const organization = account?.organization_id
      ? await this.store.getOrganization(account.organization_id)
      : undefined;
    const options = await this.signIns.options(record.email);
    return {
      email: record.email,
      role: record.role,
      account_name: account?.name ?? '',
      organization_name: organization?.name ?? '',
      status: invitationStatus(record, this.clock()),
      expires_at: record.expires_at,
      password_sign_in: organization?.password_sign_in ?? true,
      sso: options.sso,
    };
  }

  /** Accepts the invitation by setting a new local password; a session follows. */
  async acceptWithPassword(
    token: string,
    input: { readonly password: string; readonly name?: string | undefined },
    client: SignInClient,
  ): Promise<StartedSession> {
    const invitation = await this.pending(token);
    const organization = await organizationOfAccount(this.store, invitation.account_id);
    if (!organization.password_sign_in) {
      throw new Refused(
        'not_permitted',
        'Your organization signs in with SSO only: use Continue with SSO',
      );
    }
    const existing = await this.store.findPersonByEmail(organization.id, invitation.email);
    if (existing && (existing.password_hash !== null || existing.issuer !== null)) {
      throw new Refused(
        'conflict',
        'You already sign in to this organization: sign in first, then open the link again',
      );
    }
    const problem = this.passwords.problemWith(input.password, invitation.email);
    if (problem !== undefined) {
      throw new Refused('invalid_field', problem, {
        field: { path: '/password', message: problem },
      });
    }
    const hash = await this.passwords.hash(input.password);
    const at = this.clock().toISOString();
    const person: PersonRecord = existing ?? {
      ...newPerson(newId('per_'), organization.id, invitation.email, at),
      name: input.name || null,
    };
    const membership = await invitedMembership(this.store, invitation, person, at);
    const { token: sessionToken, session } = this.sessions.newSession({
      person,
      membership: membership.record,
      method: 'password',
      ...client,
    });
    await this.record(() =>
      this.store.recordSignIn({
        ...(existing ? {} : { newPerson: person }),
        password: { personId: person.id, hash },
        ...(membership.isNew ? { membership: membership.record } : {}),
        invitationId: invitation.id,
        session,
        name: input.name || null,
        audits: [invitationAccepted(invitation, membership.record, at)],
      }),
    );
    return { token: sessionToken, ...(await this.sessions.read(sessionToken)) };
  }

  /** Accepts the invitation as the person signed in (their email must be the invited one). */
  async acceptSignedIn(
    token: string,
    principal: Principal,
    client: SignInClient,
  ): Promise<StartedSession> {
    const { person, session } = principal;
    if (!person || !session) {
      throw new Refused(
        'not_permitted',
        'Sign in first (or set a password) to accept the invitation',
      );
    }
    const invitation = await this.pending(token);
    if (person.email.toLowerCase() !== invitation.email.toLowerCase()) {
      throw new Refused(
        'not_permitted',
        `The invitation is for ${invitation.email}, not ${person.email}`,
      );
    }
    const organization = await organizationOfAccount(this.store, invitation.account_id);
    if (person.organization_id !== organization.id) {
      throw new Refused('not_permitted', 'The invitation is for another organization');
    }
    const at = this.clock().toISOString();
    const membership = await invitedMembership(this.store, invitation, person, at);
    const started = this.sessions.newSession({
      person,
      membership: membership.record,
      method: session.method,
      ...(session.sso_generation !== null ? { ssoGeneration: session.sso_generation } : {}),
      ...client,
    });
    await this.record(() =>
      this.store.recordSignIn({
        ...(membership.isNew ? { membership: membership.record } : {}),
        ...(!membership.isNew && membership.record.role !== invitation.role
          ? { role: { userId: membership.record.id, role: invitation.role } }
          : {}),
        invitationId: invitation.id,
        session: started.session,
        name: null,
        audits: [invitationAccepted(invitation, membership.record, at)],
      }),
    );
    return { token: started.token, ...(await this.sessions.read(started.token)) };
  }

  private async record(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (error instanceof InvitationUnusable) throw unusable();
      throw error;
    }
  }

  private async pending(token: string): Promise<InvitationRecord> {
    const invitation = await this.store.findInvitationByToken(hashSecret(token));
    if (!invitation) throw notFound('The invitation');
    if (invitationStatus(invitation, this.clock()) !== 'pending') throw unusable();
    return invitation;
  }

  private toInvitation(record: InvitationRecord): Invitation {
    return {
      id: record.id,
      email: record.email,
      role: record.role,
      status: invitationStatus(record, this.clock()),
      created_at: record.created_at,
      expires_at: record.expires_at,
    };
  }
}

/**
 * Writes an invitation and returns its link's token. Also how the operator gives an
 * existing member (the demo's owner) a one-time link to set their password.
 */
export async function createInvitation(
  store: Store,
  input: {
    readonly accountId: string;
    readonly email: string;
    readonly role: Role;
    /** Who invites; null: the operator. */
    readonly by: Principal | null;
    readonly now: Date;
  },
): Promise<{ record: InvitationRecord; token: string }> {
  const at = input.now.toISOString();
  const token = randomBytes(32).toString('base64url');
  const record: InvitationRecord = {
    id: newId('inv_'),
    account_id: input.accountId,
    email: input.email,
    role: input.role,
    token_hash: hashSecret(token),
    created_by: input.by?.user.id ?? null,
    created_at: at,
    expires_at: new Date(input.now.getTime() + INVITATION_VALID_DAYS * DAY_MS).toISOString(),
    accepted_at: null,
    accepted_by: null,
    revoked_at: null,
  };
  await store.insertInvitation(
    record,
    audit(input.accountId, at, 'invitation.create', input.by, record.id, {
      email: input.email,
      role: input.role,
    }),
  );
  return { record, token };
}

function unusable(): Refused {
  return new Refused('invitation_unusable', 'The invitation link was used, revoked or has expired');
}
