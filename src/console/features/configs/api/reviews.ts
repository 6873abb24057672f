/**
 * A draft's review: `GET /configs/{id}/reviews` (the timeline), `POST .../review-request`
 * and `POST .../reviews`. Each step refreshes the config (its review state) and the timeline.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConfigRecord } from '../../../../contract/configs';
import type { NewReview, ReviewRequest, ReviewResult } from '../../../../contract/reviews';
import { apiRequest } from '../../../lib/api-client';
import { configsKeys } from '../../../api/config-keys';
import { dropFromConfigLists } from '../../../api/get-configs';
import { LIVE } from '../../../api/get-config';
import { reviewEndpoints } from '../../../../contract/review-endpoints';

export function reviewsQueryOptions(id: string) {
  return queryOptions({
    queryKey: configsKeys.reviews(id),
    queryFn: ({ signal }) => apiRequest(reviewEndpoints.listReviews, { params: { id }, signal }),
  });
}

export function useReviews(id: string | null) {
  return useQuery({ ...reviewsQueryOptions(id ?? ''), enabled: id !== null });
}

function useRefreshReview() {
  const queryClient = useQueryClient();
  return (id: string) => {
    void queryClient.invalidateQueries({ queryKey: configsKeys.detail(id) });
    void queryClient.invalidateQueries({ queryKey: configsKeys.reviews(id) });
    void queryClient.invalidateQueries({ queryKey: configsKeys.list() });
    void queryClient.invalidateQueries({ queryKey: configsKeys.histories() });
  };
}

export function useRequestReview() {
  const refresh = useRefreshReview();
  return useMutation({
    mutationFn: ({ id, request }: { id: string; request: ReviewRequest }): Promise<ConfigRecord> =>
      apiRequest(reviewEndpoints.requestReview, { params: { id }, body: request }),
    onSuccess: (_record, { id }) => refresh(id),
  });
}

export function useAddReview() {
  const queryClient = useQueryClient();
  const refresh = useRefreshReview();
  return useMutation({
    mutationFn: ({ id, review }: { id: string; review: NewReview }): Promise<ReviewResult> =>
      apiRequest(reviewEndpoints.addReview, { params: { id }, body: review }),
    onSuccess: (result, { id }) => {
      if (result.published_config_id !== undefined) {
        // The draft is gone: its page moves on rather than refetch it into "not found".
        dropFromConfigLists(queryClient, id);
        void queryClient.invalidateQueries({ queryKey: configsKeys.detail(LIVE) });
        void queryClient.invalidateQueries({ queryKey: configsKeys.list() });
        return;
      }
      refresh(id);
    },
  });
}
