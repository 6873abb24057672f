import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, nextAttemptAt, retryScheduleFrom } from './retry-schedule';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('the retry schedule', () => {
  it('waits 5 s, 30 s, 2 min, 10 min, 1 h, then every 6 h, and fails a day after creation', () => {
    const created = new Date('2026-11-26T00:00:00.000Z');
    let now = created;
    const delays: number[] = [];
    for (let attempts = 0; ; attempts += 1) {
      const next = nextAttemptAt(DEFAULT_RETRY_SCHEDULE, created, attempts, now);
      if (next === null) break;
      delays.push(next.getTime() - now.getTime());
      now = next;
    }
    expect(delays).toEqual([
      5 * SECOND,
      30 * SECOND,
      2 * MINUTE,
      10 * MINUTE,
      HOUR,
      6 * HOUR,
      6 * HOUR,
      6 * HOUR,
    ]);
    // Nine attempts in all; the last one, a little over 19 h in, is followed by none.
    expect(now.getTime() - created.getTime()).toBeLessThan(24 * HOUR);
  });

  it('schedules no attempt past the day, however few came before', () => {
    const created = new Date('2026-11-26T00:00:00.000Z');
    const late = new Date(created.getTime() + 24 * HOUR - 2 * SECOND);
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE, created, 0, late)).toBeNull();
    const justIn = new Date(created.getTime() + 24 * HOUR - 5 * SECOND);
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE, created, 0, justIn)?.getTime()).toBe(
      created.getTime() + 24 * HOUR,
    );
  });

  it('reads WEBHOOKS_RETRY_SCHEDULE_MS: the delays, the last one repeating', () => {
    expect(retryScheduleFrom(undefined)).toBe(DEFAULT_RETRY_SCHEDULE);
    expect(retryScheduleFrom('')).toBe(DEFAULT_RETRY_SCHEDULE);
    expect(retryScheduleFrom('100, 200,500')).toEqual({
      delaysMs: [100, 200, 500],
      thenEveryMs: 500,
      giveUpAfterMs: 24 * HOUR,
    });
    for (const wrong of ['0', '-5', '1.5', '100,,200', 'soon'])
      expect(() => retryScheduleFrom(wrong), wrong).toThrow(/WEBHOOKS_RETRY_SCHEDULE_MS/);
  });
});
