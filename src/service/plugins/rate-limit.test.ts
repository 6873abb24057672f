/**
 * The rate limit's counters (plugins/rate-limit.ts): fixed windows per key, answered as
 * snapshots so that concurrent requests each see their own count.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FixedWindowStore } from './rate-limit';

function incr(store: FixedWindowStore, key: string, timeWindow = 1_000) {
  let answer: { current: number; ttl: number } | undefined;
  store.incr(
    key,
    (error, result) => {
      expect(error).toBeNull();
      answer = result;
    },
    timeWindow,
  );
  if (!answer) throw new Error('incr did not answer synchronously');
  return answer;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-22T10:00:00.000Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('FixedWindowStore', () => {
  it('answers each request with its own count, unchanged by later requests', () => {
    const store = new FixedWindowStore();
    const answers = Array.from({ length: 6 }, () => incr(store, 'k'));
    expect(answers.map((answer) => answer.current)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('counts each key on its own', () => {
    const store = new FixedWindowStore();
    incr(store, 'a');
    incr(store, 'a');
    expect(incr(store, 'b').current).toBe(1);
    expect(incr(store, 'a').current).toBe(3);
  });

  it('starts a new window when the old one is over, with the time left as ttl', () => {
    const store = new FixedWindowStore();
    expect(incr(store, 'k')).toEqual({ current: 1, ttl: 1_000 });
    vi.advanceTimersByTime(400);
    expect(incr(store, 'k')).toEqual({ current: 2, ttl: 600 });
    vi.advanceTimersByTime(599);
    expect(incr(store, 'k')).toEqual({ current: 3, ttl: 1 });
    vi.advanceTimersByTime(1);
    expect(incr(store, 'k')).toEqual({ current: 1, ttl: 1_000 });
  });

  it('keeps at most 10,000 keys, dropping the oldest', () => {
    const store = new FixedWindowStore();
    incr(store, 'first');
    incr(store, 'first');
    for (let i = 0; i < 10_000; i++) incr(store, `key-${i}`);
    // The oldest were dropped to make room: "first" and key-0 start again, newer keys count on.
    expect(incr(store, 'first').current).toBe(1);
    expect(incr(store, 'key-0').current).toBe(1);
    expect(incr(store, 'key-9999').current).toBe(2);
    expect(incr(store, 'key-5000').current).toBe(2);
  });

  it('gives a child store its own counters', () => {
    const store = new FixedWindowStore();
    incr(store, 'k');
    expect(incr(store.child() as FixedWindowStore, 'k').current).toBe(1);
  });
});
