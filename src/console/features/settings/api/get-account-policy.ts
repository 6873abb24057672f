/** `GET /account/policy`: the account's rules for publishing drafts. A 404: no review here. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountPolicy } from '../../../../contract/reviews';
import { optionalRequest, queryKeysOf } from '../../../lib/resource-queries';
import { reviewEndpoints } from '../../../../contract/review-endpoints';

export const accountPolicyKeys = queryKeysOf('account-policy');

/** The policy, or null when the server does not offer review before publishing. */
export function getAccountPolicy(signal?: AbortSignal): Promise<AccountPolicy | null> {
  return optionalRequest(reviewEndpoints.getAccountPolicy, { signal });
}

export function accountPolicyQueryOptions() {
  return queryOptions({
    // One policy per account: the key's own account.
    queryKey: accountPolicyKeys.detail('account'),
    queryFn: ({ signal }) => getAccountPolicy(signal),
  });
}

export function useAccountPolicy({ enabled }: { enabled: boolean }) {
  return useQuery({ ...accountPolicyQueryOptions(), enabled });
}
