/**
 * Signing in through an OpenID Connect provider: the redirect there, the callback back, and
 * the provider's sign-out page. The provider's answers are checked by the relying party;
 * who the person is here is decided by the domain (domain/sign-ins.ts).
 */
import type { Principal } from '../store/records';

export class SsoSignIns {
  /** The identity provider's sign-out page for a session signed in through it, if it has one. */
  async logoutUrlFor(principal: Principal): Promise<string | undefined> {
    if (principal.session?.method !== 'sso') return undefined;
    return undefined;
  }
}
