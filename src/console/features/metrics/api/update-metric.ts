/** `PATCH /metrics/{id}`: the fields that changed; results use them from their next computation. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { updateMetricSchema, type UpdateMetricRequest } from '../../../../contract/experiments';
import { apiRequest } from '../../../lib/api-client';
import { metricsKeys } from './get-metrics';
import { experimentEndpoints } from '../../../../contract/experiment-endpoints';

export function updateMetric({ id, change }: { id: string; change: UpdateMetricRequest }) {
  return apiRequest(experimentEndpoints.updateMetric, {
    params: { metric_id: id },
    body: updateMetricSchema.parse(change),
  });
}

export function useUpdateMetric() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMetric,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: metricsKeys.list() }),
  });
}
