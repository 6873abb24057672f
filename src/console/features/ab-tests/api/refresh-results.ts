/**
 * `POST /ab-tests/{test_id}/results/refresh`: 202 at once; the background job computes the
 * results next, and the page reads them again until `computed_at` moves.
 */
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { experimentEndpoints } from '../../../../contract/experiment-endpoints';

export function refreshResults(testId: string) {
  return apiRequest(experimentEndpoints.refreshResults, { params: { test_id: testId } });
}

export function useRefreshResults(testId: string) {
  return useMutation({ mutationFn: () => refreshResults(testId) });
}
