/** The caller's accounts (environments): `GET /accounts`; null where the server offers none. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Account } from '../../contract/environments';
import { useAuthStatus } from '../lib/auth';
import { useConnection } from '../lib/connection';
import { accountOfPath } from '../lib/environment';
import { optionalRequest, queryKeysOf } from '../lib/resource-queries';
import { environmentEndpoints } from '../../contract/environment-endpoints';

export const accountKeys = queryKeysOf('accounts');

export function accountsQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.list(),
    queryFn: ({ signal }): Promise<readonly Account[] | null> =>
      optionalRequest(environmentEndpoints.listAccounts, { signal }),
    staleTime: 60_000,
  });
}

/** `enabled`: false keeps a closed dialog from asking. */
export function useAccounts(enabled = true) {
  const connection = useConnection();
  return useQuery({ ...accountsQueryOptions(), enabled: enabled && connection !== null });
}

/** How an environment's type reads, and the class that colours it. */
export const ENVIRONMENT_TYPES: Readonly<Record<string, string>> = {
  production: 'Production',
  staging: 'Staging',
  development: 'Development',
};

export function typeLabel(accountType: string): string {
  return ENVIRONMENT_TYPES[accountType] ?? accountType;
}

/** The environment this tab works in (the address's account, else the caller's own). */
export function useCurrentEnvironment(enabled = true): Account | undefined {
  const status = useAuthStatus().data;
  const accounts = useAccounts(enabled).data;
  const id = accountOfPath(window.location.pathname) ?? status?.account_id;
  return accounts?.find((account) => account.id === id);
}
