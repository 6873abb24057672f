/**
 * A session's two ends as the whoami panel says them: when it ends whatever happens (its
 * absolute end), and whether it is about to end for want of activity (its idle end).
 */
import type { AuthStatus } from '../../../contract/auth-status';
import { formatAbsolute, formatRelative } from '../../lib/time';

/** The warning shows this long before an idle end. */
export const IDLE_WARNING_MS = 5 * 60_000;

export interface SessionTimes {
  /** "18:40 UTC (in 7 hours)", or the date too when it is not today. */
  readonly ends: string | null;
  /** The idle end, when it comes before the absolute one. */
  readonly idleEndsAt: string | null;
  /** The idle end is within IDLE_WARNING_MS (and not past). */
  readonly idleWarning: boolean;
}

function clockOf(iso: string, now: number): string {
  const absolute = formatAbsolute(iso);
  return absolute.slice(0, 10) === formatAbsolute(new Date(now).toISOString()).slice(0, 10)
    ? absolute.slice(11)
    : absolute;
}

export function sessionTimes(status: AuthStatus, now: number): SessionTimes {
  const end = status.session_max_expires_at ?? status.expires_at;
  const idle =
    status.expires_at !== undefined &&
    status.session_max_expires_at !== undefined &&
    Date.parse(status.expires_at) < Date.parse(status.session_max_expires_at)
      ? status.expires_at
      : null;
  const idleLeft = idle === null ? null : Date.parse(idle) - now;
  return {
    ends: end === undefined ? null : `${clockOf(end, now)} (${formatRelative(end, now)})`,
    idleEndsAt: idle,
    idleWarning: idleLeft !== null && idleLeft > 0 && idleLeft <= IDLE_WARNING_MS,
  };
}

/** "with Acme SSO", "with a password", "with an API key". */
export function signedInWith(status: AuthStatus): string | null {
  if (status.session_method === 'api_key') return 'with an API key';
  if (status.sign_in_name === 'password' || status.session_method === 'password') {
    return status.sign_in_name === undefined || status.sign_in_name === 'password'
      ? 'with a password'
      : `with ${status.sign_in_name}`;
  }
  if (status.sign_in_name !== undefined) return `with ${status.sign_in_name}`;
  return status.session_method === 'sso' ? 'with SSO' : null;
}

export { clockOf };
