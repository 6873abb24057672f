/**
 * Failed password sign-ins slow further tries down, never locking the real person out for
 * good: after 5 failures for one email within 15 minutes, each try waits (1 s, then
 * doubling to 15 minutes) after the last failure; 100 failures from one address within an
 * hour, the same. A success resets the email. Counted in the database, so every instance
 * agrees; emails are kept as their SHA-256.
 */
import { createHash } from 'node:crypto';
import type { SignInThrottleStore } from '../store/sign-in-failures/sign-in-failures-store';
import type { SignInThrottle } from './password-sign-ins';

export const THROTTLE = {
  email: { free: 5, windowMs: 15 * 60_000 },
  ip: { free: 100, windowMs: 60 * 60_000 },
  maxWaitSeconds: 15 * 60,
} as const;

function emailSubject(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}

export class StoreSignInThrottle implements SignInThrottle {
  constructor(private readonly store: SignInThrottleStore) {}

  async wait(email: string, ip: string, now: Date): Promise<number | undefined> {
    const waits = await Promise.all([
      this.waitFor('email', emailSubject(email), now),
      this.waitFor('ip', ip, now),
    ]);
    const longest = Math.max(...waits);
    return longest > 0 ? longest : undefined;
  }

  async failed(email: string, ip: string, now: Date): Promise<void> {
    await this.store.addSignInFailures(
      [
        { scope: 'email', subject: emailSubject(email) },
        { scope: 'ip', subject: ip },
      ],
      now.toISOString(),
    );
  }

  async succeeded(email: string): Promise<void> {
    await this.store.clearSignInFailures('email', emailSubject(email));
  }

  /** Seconds left to wait in one scope; 0: go on. */
  private async waitFor(scope: 'email' | 'ip', subject: string, now: Date): Promise<number> {
    const { free, windowMs } = THROTTLE[scope];
    const since = new Date(now.getTime() - windowMs).toISOString();
    const { count, last } = await this.store.countSignInFailures(scope, subject, since);
    if (count < free || last === null) return 0;
    const waitSeconds = Math.min(2 ** (count - free), THROTTLE.maxWaitSeconds);
    const until = Date.parse(last) + waitSeconds * 1000;
    return Math.max(0, Math.ceil((until - now.getTime()) / 1000));
  }
}
