/** `POST /metrics`: a new metric (409 when its id is taken or the account has 200). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createMetricSchema, type CreateMetricRequest } from '../../../../contract/experiments';
import { apiRequest } from '../../../lib/api-client';
import { metricsKeys } from './get-metrics';
import { experimentEndpoints } from '../../../../contract/experiment-endpoints';

export function createMetric(request: CreateMetricRequest) {
  return apiRequest(experimentEndpoints.createMetric, { body: createMetricSchema.parse(request) });
}

export function useCreateMetric() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMetric,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: metricsKeys.list() }),
  });
}
