/**
 * A rate limit per API key, or per client address when no key is sent (api.md §6): on
 * average `rps` requests a second with bursts up to `burst`. @fastify/rate-limit counts in
 * fixed windows, so the window is `burst / rps` seconds holding `burst` requests: the same
 * average, and a burst of `burst` at most. `rps` 0 turns it off (benchmarks).
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { problemOf } from '../../contract/problem';
import { hashSecret } from '../domain/api-key-secrets';
import { HttpProblem } from '../http-problem';
import { bearerToken } from './authentication';

export interface RateLimitSettings {
  readonly rps: number;
  readonly burst: number;
}

export async function registerRateLimit(
  app: FastifyInstance,
  settings: RateLimitSettings,
): Promise<void> {
  if (settings.rps <= 0) return;
  const burst = Math.max(settings.burst, 1);
  await app.register(rateLimit, {
    global: true,
    max: burst,
    timeWindow: Math.ceil((burst / settings.rps) * 1000),
    // The key's hash (never the key) names its bucket.
    keyGenerator: (request) => {
      const token = bearerToken(request);
      return token ? `key:${hashSecret(token)}` : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) =>
      new HttpProblem(
        problemOf(
          'rate_limited',
          `Too many requests: at most ${context.max} per ${context.after}; retry after the Retry-After seconds`,
        ),
      ),
  });
}
