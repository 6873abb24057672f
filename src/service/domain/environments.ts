/**
 * Environments: the accounts of an organization a person reaches, the making of one (by an
 * organization owner, optionally from another's live config), and its name and protection.
 */
import type {
  Account,
  CreateAccountRequest,
  CreatedAccountAnswer,
  OrganizationOwner,
} from '../../contract/environments';
import { validateConfigText } from '../../configs/validation/validate';
import { newId } from '../ids';
import type { AccountRecord, Principal, UserRecord } from '../store/records';
import type { AccountMembership } from '../store/environments/environments';
import type { Store } from '../store/store';
import { EMPTY_CONFIG_YAML, firstConfigOf } from './accounts';
import { audit } from './audit';
import { membershipIdpUserId } from './invitation-links';
import type { Clock } from './clock';
import { LIMITS, limitReached } from './limits';
import { Refused } from './refusals';

/** The order environments are listed in: the one that matters most first. */
const TYPE_ORDER: readonly string[] = ['production', 'staging', 'development'];

export function accountAnswer(account: AccountRecord, membership: UserRecord): Account {
  return {
    id: account.id,
    name: account.name,
    account_type: account.account_type,
    protected: account.protected === true,
    organization_id: account.organization_id ?? account.idp_organization_id,
    role: membership.role,
    created_at: account.created_at,
  };
}

/** The person behind a key or a session; null for a membership made before people. */
export function personIdOf(principal: Pick<Principal, 'person' | 'user'>): string | null {
  return principal.person?.id ?? principal.user.person_id ?? null;
}

/**
 * The caller's person's membership of `accountId`, an account of the caller's organization
 * (an owner holds one in each); `refusal` is thrown otherwise, each caller naming its own.
 */
export async function membershipInOrganization(
  store: Pick<Store, 'accountMembershipOf'>,
  principal: Principal,
  accountId: string,
  refusal: () => Refused,
): Promise<AccountMembership> {
  const personId = personIdOf(principal);
  const found =
    personId === null ? undefined : await store.accountMembershipOf(personId, accountId);
  if (!found || found.account.organization_id !== principal.account.organization_id) {
    throw refusal();
  }
  return found;
}

/** Whether the caller's person owns the organization of the account the request acts on. */
export async function ownsOrganization(
  store: Pick<Store, 'isOrganizationOwner'>,
  principal: Principal,
): Promise<boolean> {
  const personId = personIdOf(principal);
  const organizationId = principal.account.organization_id;
  if (personId === null || !organizationId) return false;
  return store.isOrganizationOwner(organizationId, personId);
}

/**
 * The accounts of the caller's organization the caller's person is a member of; a membership
 * made before people reaches its own account only.
 */
export async function accountsInOrganization(
  store: Pick<Store, 'accountsOfPerson'>,
  principal: Principal,
): Promise<AccountMembership[]> {
  const personId = personIdOf(principal);
  if (personId === null) return [{ account: principal.account, membership: principal.user }];
  const organizationId = principal.account.organization_id;
  return (await store.accountsOfPerson(personId)).filter(
    ({ account }) => account.organization_id === organizationId,
  );
}

export class Environments {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Whether the caller's person owns the organization (what `GET /auth/status` reports). */
  async owns(principal: Principal): Promise<boolean> {
    return ownsOrganization(this.store, principal);
  }

  /** The caller's accounts in the organization of the account the request acts on. */
  async list(principal: Principal): Promise<Account[]> {
    const reached = await accountsInOrganization(this.store, principal);
    return reached
      .map(({ account, membership }) => accountAnswer(account, membership))
      .sort(
        (a, b) =>
          rank(a.account_type) - rank(b.account_type) ||
          a.name.localeCompare(b.name) ||
          a.id.localeCompare(b.id),
      );
  }

  /** A new account of the caller's organization, made by one of its owners. */
  async create(principal: Principal, input: CreateAccountRequest): Promise<CreatedAccountAnswer> {
    const organizationId = await this.requireOwner(principal, 'create accounts');
    const personId = personIdOf(principal) as string;
    const yaml = input.copy_from
      ? await this.liveTextOf(principal, input.copy_from)
      : { text: EMPTY_CONFIG_YAML, from: null };
    const at = this.clock().toISOString();
    const accountId = newId('acc_');
    const configId = newId('cfg_');
    const label = yaml.from ? `Copied from ${yaml.from.accountName}` : 'Initial config';
    // The new account has no metrics yet: a test of the copy naming one gets its warning.
    const report = validateConfigText(
      yaml.text,
      { type: 'published', name: label },
      { metricIds: [] },
    );
    if (!report.valid) {
      throw new Refused(
        'invalid_config',
        `The live config of ${input.copy_from ?? 'the source'} is not valid under the current rules`,
        { report },
      );
    }
    const memberships = await this.ownerMemberships(organizationId, personId, accountId, at);
    const creator = memberships[0] as UserRecord;
    const account = {
      id: accountId,
      name: input.name,
      account_type: input.account_type,
      // Unique per account: the organization's id is organization_id.
      idp_organization_id: `${organizationId}:${accountId}`,
      created_at: at,
      organization_id: organizationId,
      protected: input.protected ?? input.account_type === 'production',
    };
    const from = yaml.from;
    const made = await this.store.addEnvironment(
      {
        account,
        memberships,
        ...firstConfigOf({
          accountId,
          configId,
          label,
          yaml: yaml.text,
          report,
          at,
          summary: from
            ? `Copied from ${from.accountName} (${from.accountId}): config ${from.configId}, revision ${from.revision}`
            : label,
          actor: principal,
        }),
        audit: audit(accountId, at, 'account.create', principal, accountId, {
          name: input.name,
          account_type: input.account_type,
          ...(from ? { copied_from: from.accountId, config_id: from.configId } : {}),
        }),
      },
      LIMITS.accounts_per_organization,
    );
    if (!made) throw limitReached('accounts_per_organization');
    return {
      ...accountAnswer(account, creator),
      user_id: creator.id,
      live_config_id: configId,
    };
  }

  /**
   * Names a member of the account acting on an owner of the organization: only an owner may.
   * The new owner becomes an admin of every account of it.
   */
  async nameOwner(principal: Principal, userId: string): Promise<OrganizationOwner> {
    const organizationId = await this.requireOwner(principal, 'name owners');
    const member = await this.store.getUser(userId);
    const person = member?.person_id ? await this.store.getPerson(member.person_id) : undefined;
    if (!member || member.removed_at || member.account_id !== principal.account.id || !person) {
      throw new Refused('not_found', `The member ${userId} was not found in this account`);
    }
    const at = this.clock().toISOString();
    const accounts = await this.store.nameOrganizationOwner(
      organizationId,
      person.id,
      (accountId) => ({
        id: newId('usr_'),
        account_id: accountId,
        email: person.email,
        role: 'admin',
        idp_user_id: membershipIdpUserId(person, accountId, true),
        created_at: at,
        person_id: person.id,
      }),
      at,
      audit(principal.account.id, at, 'organization.owner_add', principal, userId, {
        email: person.email,
      }),
    );
    return { user_id: userId, email: member.email, accounts };
  }

  /** The organization's id, when the caller's person owns it; 403 otherwise. */
  private async requireOwner(principal: Principal, what: string): Promise<string> {
    const organizationId = principal.account.organization_id;
    if (!organizationId || !(await ownsOrganization(this.store, principal))) {
      throw new Refused(
        'not_permitted',
        `Only the organization's owners may ${what}; ask one of them`,
      );
    }
    return organizationId;
  }

  /** Renames or (un)protects an account: its admins may. */
  async update(
    principal: Principal,
    accountId: string,
    change: { readonly name?: string; readonly protected?: boolean },
  ): Promise<Account> {
    const reached = await this.reachedAccount(principal, accountId);
    if (reached.membership.role !== 'admin') {
      throw new Refused(
        'not_permitted',
        `Only the admins of ${reached.account.name} may change it`,
      );
    }
    const at = this.clock().toISOString();
    const updated = await this.store.updateAccount(
      accountId,
      change,
      audit(accountId, at, 'account.update', principal, accountId, { ...change }),
    );
    if (!updated) throw new Refused('not_found', `The account ${accountId} was not found`);
    return accountAnswer(updated, reached.membership);
  }

  private async reachedAccount(principal: Principal, accountId: string) {
    const found = (await accountsInOrganization(this.store, principal)).find(
      ({ account }) => account.id === accountId,
    );
    if (!found) throw new Refused('not_found', `The account ${accountId} was not found`);
    return found;
  }

  private async liveTextOf(principal: Principal, accountId: string) {
    const source = await membershipInOrganization(
      this.store,
      principal,
      accountId,
      () =>
        new Refused('invalid_field', `No account ${accountId} of your organization`, {
          field: { path: '/copy_from', message: 'is not an account of your organization' },
        }),
    );
    const liveId = await this.store.getLiveId(accountId);
    const live = liveId === undefined ? undefined : await this.store.getConfig(accountId, liveId);
    if (!live) throw new Refused('not_found', `The account ${accountId} has no live config`);
    return {
      text: live.yaml,
      from: {
        accountId,
        accountName: source.account.name,
        configId: live.id,
        revision: live.revision,
      },
    };
  }

  /** The creator, then every other owner: each an admin of the new account. */
  private async ownerMemberships(
    organizationId: string,
    creatorPersonId: string,
    accountId: string,
    at: string,
  ): Promise<UserRecord[]> {
    const owners = await this.store.organizationOwners(organizationId);
    const personIds = [creatorPersonId, ...owners.filter((id) => id !== creatorPersonId)];
    const memberships: UserRecord[] = [];
    for (const personId of personIds) {
      const person = await this.store.getPerson(personId);
      if (!person) continue;
      memberships.push({
        id: newId('usr_'),
        account_id: accountId,
        email: person.email,
        role: 'admin',
        idp_user_id: membershipIdpUserId(person, accountId, true),
        created_at: at,
        person_id: person.id,
      });
    }
    return memberships;
  }
}

function rank(accountType: string): number {
  const index = TYPE_ORDER.indexOf(accountType);
  return index === -1 ? TYPE_ORDER.length : index;
}
