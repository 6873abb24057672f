/**
 * A rate limit per API key, or per client address without a valid key: on average `rps`
 * requests a second, bursts up to `burst` (fixed windows of `burst / rps` seconds). `rps` 0
 * turns it off. `GET /health` and the console's files are never counted, so that a flood
 * from one address does not fail its probes or the console's page.
 *
 * The delivery URLs have a limit of their own, per client address only: a whole fleet of
 * apps shares one client key, so counting per key would let one app starve the others.
 */
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify';
import { API_BASE_PATH } from '../../contract/endpoints';
import { actorIdOf } from '../domain/audit';
import { problemOf } from '../../contract/problem';
import { HttpProblem } from '../http-problem';
import { authenticationOf } from './authentication';
import { DELIVERY_PATH_PREFIX } from './cors';

export interface RateLimitSettings {
  readonly rps: number;
  readonly burst: number;
}

/**
 * Per client address on the delivery URLs: 200 a second, bursts of 2,000. An office or a
 * mobile carrier's NAT puts thousands of devices behind one address.
 */
export const DEFAULT_DELIVERY_RATE_LIMIT: RateLimitSettings = { rps: 200, burst: 2_000 };

/**
 * Counters kept at most. When full, expired windows go, then the oldest down to 90%, so that
 * the sweep runs once per thousand new keys, not on every one.
 */
const MAX_TRACKED_KEYS = 10_000;
const KEPT_AFTER_EVICTION = 9_000;

/**
 * Fixed-window counters in memory, like the plugin's LocalStore, but `incr` answers with a
 * snapshot: the plugin reads it after an `await`, so a shared counter would make a whole
 * concurrent burst see its final count and refuse even its first `burst` requests.
 */
export class FixedWindowStore implements FastifyRateLimitStore {
  private readonly windows = new Map<string, { count: number; start: number }>();

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    callback(null, this.count(key, timeWindow));
  }

  /** Counts one request against `key`: the count in its window, and ms until the window ends. */
  count(key: string, timeWindow: number): { current: number; ttl: number } {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.start + timeWindow <= now) {
      this.windows.delete(key);
      if (this.windows.size >= MAX_TRACKED_KEYS) this.evict(now, timeWindow);
      window = { count: 0, start: now };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { current: window.count, ttl: window.start + timeWindow - now };
  }

  child(): FastifyRateLimitStore {
    return new FixedWindowStore();
  }

  private evict(now: number, timeWindow: number): void {
    for (const [key, window] of this.windows) {
      if (window.start + timeWindow <= now) this.windows.delete(key);
    }
    // Still too full: drop the oldest windows (a Map iterates in insertion order).
    for (const key of this.windows.keys()) {
      if (this.windows.size <= KEPT_AFTER_EVICTION) break;
      this.windows.delete(key);
    }
  }
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/** Reads outside the API (the console's files and pages) and the health probe. */
function isUncounted(route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!methods.every((method) => method === 'GET' || method === 'HEAD')) return false;
  return route.url === `${API_BASE_PATH}/health` || !route.url.startsWith(`${API_BASE_PATH}/`);
}

function isDelivery(route: RouteOptions): boolean {
  return route.url.startsWith(DELIVERY_PATH_PREFIX);
}

/**
 * The delivery URLs' limit: fixed windows per client address, no key looked at (a stream
 * counts once, when it opens). A 429 says when to come back.
 */
export function deliveryRateLimit(settings: RateLimitSettings): onRequestHookHandler {
  const max = Math.max(settings.burst, 1);
  const timeWindow = Math.ceil((max / settings.rps) * 1000);
  const windows = new FixedWindowStore();
  const detail = `Too many requests from this address to the delivery URLs: at most ${max} per ${timeWindow / 1000} s; retry after the Retry-After seconds`;
  return (request, _reply, done) => {
    const { current, ttl } = windows.count(request.ip, timeWindow);
    if (current <= max) return done();
    const retryAfter = String(Math.max(1, Math.ceil(ttl / 1000)));
    done(new HttpProblem(problemOf('rate_limited', detail), { 'retry-after': retryAfter }));
  };
}

export async function registerRateLimit(
  app: FastifyInstance,
  settings: RateLimitSettings,
  delivery: RateLimitSettings = { rps: 0, burst: 0 },
): Promise<void> {
  const deliveryLimit = delivery.rps > 0 ? deliveryRateLimit(delivery) : undefined;
  if (settings.rps <= 0 && !deliveryLimit) return;
  const identify = settings.rps > 0 ? authenticationOf(app).identify : undefined;
  const burst = Math.max(settings.burst, 1);
  // Before the plugin's own onRoute hook, which skips a route whose config says false and
  // adds its counting hook after the route's own: the caller is identified first.
  app.addHook('onRoute', (route) => {
    if (isDelivery(route)) {
      route.config = { ...route.config, rateLimit: false };
      if (deliveryLimit) route.onRequest = [deliveryLimit, ...hooksOf(route.onRequest)];
    } else if (isUncounted(route)) route.config = { ...route.config, rateLimit: false };
    else if (identify) route.onRequest = [identify, ...hooksOf(route.onRequest)];
  });
  if (!identify) return;
  await app.register(rateLimit, {
    global: true,
    max: burst,
    timeWindow: Math.ceil((burst / settings.rps) * 1000),
    store: FixedWindowStore,
    // A valid key has a bucket of its own (named by its id, never the key); requests with
    // no key, or a malformed, unknown, revoked or expired one, count against their address,
    // so inventing keys does not escape the limit.
    keyGenerator: (request) =>
      request.principal ? `caller:${actorIdOf(request.principal)}` : `ip:${request.ip}`,
    errorResponseBuilder: (_request, context) =>
      new HttpProblem(
        problemOf(
          'rate_limited',
          `Too many requests: at most ${context.max} per ${context.after}; retry after the Retry-After seconds`,
        ),
      ),
  });
}
