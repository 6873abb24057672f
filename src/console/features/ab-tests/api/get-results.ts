/**
 * `GET /ab-tests/{test_id}/results` and `…/results/timeseries`: what the background job last
 * computed, read with the engine and phase the page's address names. A 404: no results
 * (the server does not compute them, or the test never ran in the live config).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ExperimentResults, ResultsQuery } from '../../../../contract/experiments';
import { optionalRequest, queryKeysOf } from '../../../lib/resource-queries';
import { experimentEndpoints } from '../../../../contract/experiment-endpoints';

export const resultsKeys = {
  ...queryKeysOf('results'),
  ofTest: (testId: string) => [...resultsKeys.all, 'test', testId] as const,
  summary: (testId: string, query: ResultsQuery) =>
    [...resultsKeys.ofTest(testId), 'summary', query] as const,
  /** By the results' `computed_at` too: new results bring their own day-by-day lift. */
  timeseries: (testId: string, query: ResultsQuery, computedAt: string | null) =>
    [...resultsKeys.ofTest(testId), 'timeseries', query, computedAt] as const,
};

/** While a refresh is awaited, the results are read again this often. */
export const REFRESH_POLL_MS = 1_000;

export function resultsQueryOptions(testId: string, query: ResultsQuery) {
  return queryOptions({
    queryKey: resultsKeys.summary(testId, query),
    queryFn: ({ signal }) =>
      optionalRequest(experimentEndpoints.getResults, {
        params: { test_id: testId },
        query,
        signal,
      }),
  });
}

/**
 * The results, read again every REFRESH_POLL_MS while `pollWhile` holds for the last answer
 * (a refresh is awaited). The last view stays shown while another engine's loads.
 */
export function useResults(
  testId: string,
  query: ResultsQuery,
  pollWhile: (results: ExperimentResults | null | undefined) => boolean,
) {
  return useQuery({
    ...resultsQueryOptions(testId, query),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (pollWhile(current.state.data) ? REFRESH_POLL_MS : false),
  });
}

export function timeseriesQueryOptions(
  testId: string,
  query: ResultsQuery,
  computedAt: string | null,
) {
  return queryOptions({
    queryKey: resultsKeys.timeseries(testId, query, computedAt),
    queryFn: ({ signal }) =>
      optionalRequest(experimentEndpoints.getResultsTimeseries, {
        params: { test_id: testId },
        query,
        signal,
      }),
  });
}

export function useTimeseries(
  testId: string,
  query: ResultsQuery,
  computedAt: string | null,
  { enabled = true } = {},
) {
  return useQuery({
    ...timeseriesQueryOptions(testId, query, computedAt),
    placeholderData: keepPreviousData,
    enabled,
  });
}
