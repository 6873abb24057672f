/**
 * `POST /config/edit` for the A/B test forms: `create_ab_test` lands in a draft, a lifecycle
 * step publishes (docs/config.md, Operations). Either way every view of the configs and tests refreshes.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiProblem } from '../../lib/api-client';
import { editConfig } from '../../api/edit-config';
import { configsKeys } from '../../api/config-keys';
import { dropFromConfigLists } from '../../api/get-configs';

export function useAbTestEdit() {
  const queryClient = useQueryClient();
  /** Every view of the configs (their tests too) refetches, except a draft the step consumed. */
  const refresh = (consumedDraftId: string | null = null) =>
    queryClient.invalidateQueries({
      queryKey: configsKeys.all,
      predicate: ({ queryKey }) => consumedDraftId === null || !queryKey.includes(consumedDraftId),
    });
  return useMutation({
    mutationFn: editConfig,
    // A step on a draft publishes it and the draft is gone: refetching it would only show
    // "not found" on the page the person is about to leave. (A published base never
    // changes, so leaving it out is harmless.)
    onSuccess: ({ result }) => {
      const consumed = result.kind === 'published' ? result.base_config_id : null;
      // Nor may a page that mounts later ask for it because a cached list still names it.
      if (consumed !== null) dropFromConfigLists(queryClient, consumed);
      return refresh(consumed);
    },
    // Refused because the config moved on (412) or the step no longer fits (409): the page
    // behind the form shows the newer state while the form says why.
    onError: (error) => {
      if (error instanceof ApiProblem && (error.status === 409 || error.status === 412)) {
        void refresh();
      }
    },
  });
}
