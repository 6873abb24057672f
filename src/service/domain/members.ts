/**
 * Members of an account: who they are, their role, removal. The account's last admin can
 * be neither demoted nor removed; a removed member's sessions end and keys stop at once.
 */
import type { Role } from '../../contract/auth-status';
import type { Member } from '../../contract/people';
import type { Page, PageRequest } from '../store/pages';
import { mapPage } from '../store/pages';
import type { MemberRow } from '../store/people/people';
import type { Principal } from '../store/records';
import type { Store } from '../store/store';
import { audit } from './audit';
import type { Clock } from './clock';
import { notFound, Refused } from './refusals';

export class Members {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, page: PageRequest): Promise<Page<Member>> {
    return mapPage(await this.store.listMembers(principal.account.id, page), toMember);
  }

  async setRole(principal: Principal, userId: string, role: Role): Promise<Member> {
    const accountId = principal.account.id;
    const before = await this.store.getMember(accountId, userId);
    if (!before) throw notFound(`The member ${userId}`);
    const at = this.clock().toISOString();
    const refusal = await this.store.setMemberRole(
      accountId,
      userId,
      role,
      audit(accountId, at, 'member.role_change', principal, userId, {
        email: before.email,
        from: before.role,
        to: role,
      }),
    );
    if (refusal === 'not_found') throw notFound(`The member ${userId}`);
    if (refusal === 'last_admin') throw lastAdmin(before.email, 'demoted');
    return toMember({ ...before, role });
  }

  async remove(principal: Principal, userId: string): Promise<void> {
    const accountId = principal.account.id;
    const member = await this.store.getMember(accountId, userId);
    if (!member) throw notFound(`The member ${userId}`);
    const at = this.clock().toISOString();
    const refusal = await this.store.removeMember(
      accountId,
      userId,
      at,
      audit(accountId, at, 'member.remove', principal, userId, { email: member.email }),
    );
    if (refusal === 'not_found') throw notFound(`The member ${userId}`);
    if (refusal === 'last_admin') throw lastAdmin(member.email, 'removed');
  }

  /** An admin's revocation: every open session of the member ends. */
  async endSessions(principal: Principal, userId: string): Promise<number> {
    const accountId = principal.account.id;
    const member = await this.store.getMember(accountId, userId);
    if (!member) throw notFound(`The member ${userId}`);
    const at = this.clock().toISOString();
    return this.store.endSessions(
      { userId },
      at,
      'revoked_by_admin',
      audit(accountId, at, 'session.revoke', principal, userId, { email: member.email }),
    );
  }
}

function lastAdmin(email: string, what: 'demoted' | 'removed'): Refused {
  return new Refused(
    'last_admin',
    `${email} is the account's last admin and cannot be ${what}: make another member admin first`,
  );
}

function toMember(row: MemberRow): Member {
  return {
    user_id: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    sign_in: row.sign_in,
    last_sign_in_at: row.last_sign_in_at,
    status: 'active',
    organization_owner: row.organization_owner,
  };
}
