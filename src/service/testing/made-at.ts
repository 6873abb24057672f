/**
 * Accounts, users and API keys made at a given instant: the tests' fixtures and the
 * benchmarks' seeds, through the same domain classes the service uses.
 */
import { Accounts, type CreatedAccount, type NewAccount, type NewUser } from '../domain/accounts';
import { ApiKeys, type NewApiKey } from '../domain/api-keys';
import type { CreatedApiKey } from '../../contract/api-keys';
import type { UserRecord } from '../store/records';
import type { Store } from '../store/store';

export function createAccount(
  store: Store,
  input: NewAccount & { readonly now: Date },
): Promise<CreatedAccount> {
  return new Accounts(store, () => input.now).create(input);
}

export function createUser(
  store: Store,
  input: NewUser & { readonly now: Date },
): Promise<UserRecord> {
  return new Accounts(store, () => input.now).addUser(input);
}

export function createApiKey(
  store: Store,
  input: NewApiKey & { readonly now: Date },
): Promise<CreatedApiKey> {
  return new ApiKeys(store, () => input.now).issue(input);
}
