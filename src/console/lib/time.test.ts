import { describe, expect, it } from 'vitest';
import { DAY, describeExpiry, formatAbsolute, formatRelative } from './time';

const now = Date.parse('2026-11-22T10:00:00.000Z');

describe('time formatting', () => {
  it('writes absolute times in UTC', () => {
    expect(formatAbsolute('2026-11-25T10:00:00.000Z')).toBe('2026-11-25 10:00 UTC');
    expect(formatAbsolute('2026-11-25T12:30:00+02:00')).toBe('2026-11-25 10:30 UTC');
  });

  it('writes relative times in whole units', () => {
    expect(formatRelative(new Date(now + 3 * DAY - 1000).toISOString(), now)).toBe('in 3 days');
    expect(formatRelative(new Date(now - 2 * DAY).toISOString(), now)).toBe('2 days ago');
    expect(formatRelative(new Date(now + 5 * 3_600_000).toISOString(), now)).toBe('in 5 hours');
    expect(formatRelative(new Date(now + 90_000).toISOString(), now)).toBe('in 2 minutes');
  });

  it('warns when a key expires within 7 days, and says when it has expired', () => {
    expect(describeExpiry('2026-11-25T10:00:00.000Z', now)).toEqual({
      expired: false,
      relative: 'Expires in 3 days',
      absolute: '2026-11-25 10:00 UTC',
      warning: 'This key expires in 3 days.',
    });
    expect(describeExpiry(new Date(now + 30 * DAY).toISOString(), now).warning).toBeNull();
    expect(describeExpiry(new Date(now + 7 * DAY).toISOString(), now).warning).toBeNull();
    expect(describeExpiry('2026-11-20T10:00:00.000Z', now)).toMatchObject({
      expired: true,
      relative: 'Expired 2 days ago',
      warning: null,
    });
  });
});
