/** The service's password rules and sign-in throttle (wired when the password modules land). */
import type { PasswordRules, SignInThrottle } from '../domain/sign-ins';
import type { Store } from '../store/store';

export async function servicePasswordRules(): Promise<PasswordRules> {
  return {
    problemWith: () => 'Passwords are not available yet',
    hash: async () => {
      throw new Error('password hashing is not wired yet');
    },
    verify: async () => false,
  };
}

export class StoreSignInThrottle implements SignInThrottle {
  constructor(private readonly store: Store) {}
  async wait(): Promise<number | undefined> {
    void this.store;
    return undefined;
  }
  async failed(): Promise<void> {}
  async succeeded(): Promise<void> {}
}
