/**
 * Which account a request acts on. A key acts on its own account; an organization owner's key
 * may name another of the organization in `X-Account-Id`. A person in a session names the
 * account whenever they are a member of more than one.
 */
import { ROLE_PERMISSIONS } from '../../contract/auth-status';
import { keyPermissions } from '../store/api-keys/api-keys';
import type { Principal } from '../store/records';
import type { Store } from '../store/store';
import { accountsInOrganization, membershipInOrganization, ownsOrganization } from './environments';
import { Refused } from './refusals';

export class AccountSelection {
  constructor(private readonly store: Store) {}

  /**
   * The principal acting on `accountId` (the header's value, if sent). `personLevel`: the
   * route is about the person, not an account (who am I, my accounts, my sessions), so a
   * session needs no header there and acts on the account it was started in.
   */
  async actOn(
    principal: Principal,
    accountId: string | undefined,
    personLevel: boolean,
  ): Promise<Principal> {
    if (accountId === undefined || accountId === principal.account.id) {
      if (accountId === undefined && principal.session && !personLevel)
        await this.requireSingleAccount(principal);
      return principal;
    }
    const { membership, account } = await membershipInOrganization(
      this.store,
      principal,
      accountId,
      () => new Refused('not_permitted', `You are not a member of the account ${accountId}`),
    );
    const { key } = principal;
    if (key && !(await ownsOrganization(this.store, principal))) {
      throw new Refused(
        'not_permitted',
        "An API key acts on its own account; only an organization owner's key may name another in X-Account-Id",
      );
    }
    return {
      ...principal,
      user: membership,
      account,
      permissions: key ? keyPermissions(key, membership.role) : ROLE_PERMISSIONS[membership.role],
    };
  }

  private async requireSingleAccount(principal: Principal): Promise<void> {
    const accounts = await accountsInOrganization(this.store, principal);
    if (accounts.length > 1) {
      throw new Refused(
        'account_required',
        `You are a member of ${accounts.length} accounts: name the one to act on in X-Account-Id`,
      );
    }
  }
}
