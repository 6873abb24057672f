import { describe, expect, it } from 'vitest';
import { RecentReading } from './recent-reading';

describe('a reading kept for a short window', () => {
  it('reads once within the window and again once it has passed', () => {
    let now = 1_000;
    let reads = 0;
    const reading = new RecentReading(
      () => (reads += 1),
      0.25,
      () => now,
    );
    expect(reading.get()).toBe(1);
    now += 0.1;
    expect(reading.get()).toBe(1);
    now += 0.149;
    expect(reading.get()).toBe(1);
    now += 0.001;
    expect(reading.get()).toBe(2);
    expect(reads).toBe(2);
  });
});
