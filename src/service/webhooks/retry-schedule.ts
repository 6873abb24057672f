/**
 * When a failed delivery is tried again: growing delays, then a steady interval, until a
 * day after the delivery was created; after that it is failed (a person may retry it).
 */
export interface RetrySchedule {
  /** The delay after the first failed attempt, the second, … */
  readonly delaysMs: readonly number[];
  /** The delay after each later failed attempt. */
  readonly thenEveryMs: number;
  /** No attempt is scheduled later than this after the delivery's creation. */
  readonly giveUpAfterMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  delaysMs: [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, HOUR],
  thenEveryMs: 6 * HOUR,
  giveUpAfterMs: 24 * HOUR,
};

/**
 * When to try again after a failed attempt; null: never (the delivery is failed).
 * `attemptsBefore` is how many attempts came before the one that just failed.
 */
export function nextAttemptAt(
  schedule: RetrySchedule,
  createdAt: Date,
  attemptsBefore: number,
  now: Date,
): Date | null {
  const delay = schedule.delaysMs[attemptsBefore] ?? schedule.thenEveryMs;
  const next = now.getTime() + delay;
  if (next > createdAt.getTime() + schedule.giveUpAfterMs) return null;
  return new Date(next);
}

/**
 * `WEBHOOKS_RETRY_SCHEDULE_MS` (tests and trials only): comma-separated delays in
 * milliseconds; the last one repeats; the delivery still fails a day after its creation.
 */
export function retryScheduleFrom(raw: string | undefined): RetrySchedule {
  if (raw === undefined || raw.trim() === '') return DEFAULT_RETRY_SCHEDULE;
  const parts = raw.split(',').map((part) => part.trim());
  if (!parts.every((part) => /^[1-9][0-9]*$/.test(part)))
    throw new Error(
      `WEBHOOKS_RETRY_SCHEDULE_MS must be comma-separated whole numbers of milliseconds > 0, got "${raw}"`,
    );
  const delaysMs = parts.map(Number);
  return {
    delaysMs,
    thenEveryMs: delaysMs[delaysMs.length - 1] ?? DEFAULT_RETRY_SCHEDULE.thenEveryMs,
    giveUpAfterMs: DEFAULT_RETRY_SCHEDULE.giveUpAfterMs,
  };
}
