/** `PUT /account/policy`: replaces the account's rules for publishing drafts. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountPolicySchema, type AccountPolicy } from '../../../../contract/reviews';
import { configsKeys } from '../../../api/config-keys';
import { apiRequest } from '../../../lib/api-client';
import { accountPolicyKeys } from './get-account-policy';
import { reviewEndpoints } from '../../../../contract/review-endpoints';

export function setAccountPolicy(policy: AccountPolicy): Promise<AccountPolicy> {
  // The contract's own schema checks the body before it leaves.
  return apiRequest(reviewEndpoints.setAccountPolicy, { body: accountPolicySchema.parse(policy) });
}

export function useSetAccountPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAccountPolicy,
    // Every draft's review state counts against the policy, so the configs change too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountPolicyKeys.all }),
        queryClient.invalidateQueries({ queryKey: configsKeys.all }),
      ]),
  });
}
