/** `GET /account/policy`: the account's rules for publishing drafts. A 404: no review here. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountPolicy } from '../../../../contract/reviews';
import { apiRequest, isNotOffered } from '../../../lib/api-client';

export const accountPolicyKeys = {
  all: ['account-policy'] as const,
};

/** The policy, or null when the server does not offer review before publishing. */
export async function getAccountPolicy(signal?: AbortSignal): Promise<AccountPolicy | null> {
  try {
    return await apiRequest('getAccountPolicy', { signal });
  } catch (error) {
    if (isNotOffered(error)) return null;
    throw error;
  }
}

export function accountPolicyQueryOptions() {
  return queryOptions({
    queryKey: accountPolicyKeys.all,
    queryFn: ({ signal }) => getAccountPolicy(signal),
  });
}

export function useAccountPolicy({ enabled }: { enabled: boolean }) {
  return useQuery({ ...accountPolicyQueryOptions(), enabled });
}
