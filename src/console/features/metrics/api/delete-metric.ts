/** `DELETE /metrics/{id}`: tests that still name it warn, and their results leave it out. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { metricsKeys } from './get-metrics';
import { experimentEndpoints } from '../../../../contract/experiment-endpoints';

export async function deleteMetric(id: string): Promise<void> {
  await apiRequest(experimentEndpoints.deleteMetric, { params: { metric_id: id } });
}

export function useDeleteMetric() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMetric,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: metricsKeys.list() }),
  });
}
