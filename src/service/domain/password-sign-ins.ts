/**
 * Signing in with a local password: throttled before any work, the same answer and about the
 * same time for an unknown email as for a wrong password, and refused where the
 * organization signs in with SSO only.
 */
import type { PersonRecord } from '../store/records';
import type { Store } from '../store/store';
import { audit } from './audit';
import type { Clock } from './clock';
import { Refused } from './refusals';
import type { Sessions, StartedSession } from './sessions';
import type { SignInClient } from './sign-ins';

/** The password rules and hashing the service uses (domain/passwords.ts). */
export interface PasswordRules {
  /** Why a new password is refused, in words; undefined: it is fine. */
  problemWith(password: string, email: string): string | undefined;
  hash(password: string): Promise<string>;
  /** Whether `password` matches `stored`; with none stored, spends the same time and says no. */
  verify(stored: string | null, password: string): Promise<boolean>;
}

/** Failed sign-ins slow further tries down (domain/sign-in-throttle.ts). */
export interface SignInThrottle {
  /** Seconds to wait before trying again; undefined: go on. */
  wait(email: string, ip: string, now: Date): Promise<number | undefined>;
  failed(email: string, ip: string, now: Date): Promise<void>;
  succeeded(email: string, now: Date): Promise<void>;
}

export class PasswordSignIns {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly sessions: Sessions,
    private readonly passwords: PasswordRules,
    private readonly throttle: SignInThrottle,
  ) {}

  async withPassword(
    email: string,
    password: string,
    client: SignInClient & { readonly ip: string },
  ): Promise<StartedSession> {
    const now = this.clock();
    const wait = await this.throttle.wait(email, client.ip, now);
    if (wait !== undefined) {
      throw new Refused(
        'too_many_tries',
        `Too many failed sign-ins: try again in ${wait} seconds`,
        { retryAfterSeconds: wait },
      );
    }
    const candidates = (await this.store.peopleByEmail(email)).filter(
      (person) => person.password_hash !== null,
    );
    let person: PersonRecord | undefined;
    for (const candidate of candidates) {
      if (await this.passwords.verify(candidate.password_hash, password)) {
        person = candidate;
        break;
      }
    }
    // Nobody with a password: the same work as a wrong one, so time tells nothing.
    if (candidates.length === 0) await this.passwords.verify(null, password);
    const membership = person && (await this.store.membershipsOf(person.id))[0];
    if (!person || !membership) {
      await this.throttle.failed(email, client.ip, now);
      await this.auditFailure(candidates[0], email, client, 'wrong_password');
      throw new Refused('sign_in_failed', 'The email or password is not right');
    }
    await this.throttle.succeeded(email, now);
    const organization = await this.store.getOrganization(person.organization_id);
    if (!organization?.password_sign_in) {
      throw new Refused(
        'not_permitted',
        'Your organization signs in with SSO only: use Continue with SSO',
      );
    }
    return this.sessions.startAndRead({ person, membership, method: 'password', ...client });
  }

  private async auditFailure(
    person: PersonRecord | undefined,
    email: string,
    client: SignInClient,
    reason: string,
  ): Promise<void> {
    if (!person) return;
    const membership = (await this.store.membershipsOf(person.id))[0];
    if (!membership) return;
    const at = this.clock().toISOString();
    await this.store.addAuditRecord({
      ...audit(membership.account_id, at, 'sign_in.failed', null, membership.id, { email, reason }),
      ip: client.ip,
    });
  }
}
