/** `GET /metrics`: the account's metrics with the tests that name them. A 404: not offered. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { optionalRequest, queryKeysOf } from '../../../lib/resource-queries';
import { experimentEndpoints } from '../../../../contract/experiment-endpoints';

export const metricsKeys = queryKeysOf('metrics');

export function metricsQueryOptions() {
  return queryOptions({
    queryKey: metricsKeys.list(),
    queryFn: ({ signal }) => optionalRequest(experimentEndpoints.listMetrics, { signal }),
  });
}

export function useMetrics() {
  return useQuery(metricsQueryOptions());
}
