/** The per-key event budget: a token bucket that refills at its rate, 0 turning it off. */
import { describe, expect, it } from 'vitest';
import { EventBudget } from './event-ingestion';

function clockAt(start: number) {
  let now = start;
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('EventBudget', () => {
  it('allows a burst, then refills at its rate a second', () => {
    const time = clockAt(0);
    const budget = new EventBudget({ perSecond: 100, burst: 300 }, time.clock);
    expect(budget.take('ck_a', 300)).toBeUndefined();
    expect(budget.take('ck_a', 1)).toBe(1);
    time.advance(500);
    expect(budget.take('ck_a', 50)).toBeUndefined();
    expect(budget.take('ck_a', 250)).toBe(3);
    // Each key has its own bucket.
    expect(budget.take('ck_b', 300)).toBeUndefined();
  });

  it('is no bound at 0 events a second', () => {
    const budget = new EventBudget({ perSecond: 0, burst: 0 }, () => new Date(0));
    expect(budget.take('ck_a', 1_000_000)).toBeUndefined();
  });

  it('forgets the oldest keys past its bound, which then start full', () => {
    const time = clockAt(0);
    const budget = new EventBudget({ perSecond: 1, burst: 10 }, time.clock, 2);
    expect(budget.take('ck_a', 10)).toBeUndefined();
    budget.take('ck_b', 1);
    budget.take('ck_c', 1);
    expect(budget.take('ck_a', 10)).toBeUndefined();
  });
});
