/**
 * How long to wait before reconnecting: exponential (the ceiling doubles per failed attempt,
 * up to `maxMs`) with "equal jitter", a random point in the ceiling's upper half, so that a
 * fleet of apps dropped by one restart does not come back in step.
 */
export function reconnectDelay(
  attempt: number,
  initialMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A Retry-After beyond this is a mistake, not a reason to stay silent for hours. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** `Retry-After` in milliseconds: seconds, or an HTTP date; undefined when absent or bad. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
