/**
 * Times as people read them: absolute in UTC ("2026-11-25 10:00 UTC", the same for every
 * viewer and in every screenshot) and relative ("in 3 days", "2 hours ago").
 */
import { useEffect, useState } from 'react';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** A key expiring sooner than this gets a warning. */
export const EXPIRY_WARNING_DAYS = 7;

const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** `2026-11-25T10:00:00.000Z` -> `2026-11-25 10:00 UTC`. */
export function formatAbsolute(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`
  );
}

/** Whole units from `now` to `iso`, rounded: "in 3 days", "5 minutes ago". */
export function formatRelative(iso: string, now: number): string {
  const ms = Date.parse(iso) - now;
  const abs = Math.abs(ms);
  const sign = ms < 0 ? -1 : 1;
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', DAY],
    ['hour', HOUR],
    ['minute', MINUTE],
  ];
  for (const [unit, size] of units) {
    const count = Math.round(abs / size);
    if (count >= 1) return relativeFormat.format(sign * count, unit);
  }
  return relativeFormat.format(sign * Math.round(abs / 1000), 'second');
}

export interface Expiry {
  readonly expired: boolean;
  /** "Expires in 3 days" or "Expired 2 days ago". */
  readonly relative: string;
  readonly absolute: string;
  /** Set when the key expires within EXPIRY_WARNING_DAYS: "This key expires in 3 days." */
  readonly warning: string | null;
}

export function describeExpiry(expiresAt: string, now: number): Expiry {
  const ms = Date.parse(expiresAt) - now;
  const relative = formatRelative(expiresAt, now);
  const absolute = formatAbsolute(expiresAt);
  if (ms <= 0) return { expired: true, relative: `Expired ${relative}`, absolute, warning: null };
  // Warn by the days shown, so that the text and the warning agree ("in 7 days": no warning).
  const soon = Math.round(ms / DAY) < EXPIRY_WARNING_DAYS;
  return {
    expired: false,
    relative: `Expires ${relative}`,
    absolute,
    warning: soon ? `This key expires ${relative}.` : null,
  };
}

/** The current time, refreshed every `intervalMs`, for relative times that stay true. */
export function useNow(intervalMs = MINUTE): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
