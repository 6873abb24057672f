import { QueryClient } from '@tanstack/react-query';
import { ApiProblem, NotConnectedError, ResponseParseError } from './api-client';

/** Retrying helps with a flaky network, never with an answer the server meant. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiProblem) return error.status >= 500 && failureCount < 2;
  if (error instanceof ResponseParseError || error instanceof NotConnectedError) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
