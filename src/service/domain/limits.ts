/**
 * What one account may hold at most, so that no table grows without bound by one account's
 * hand (docs/api.md, Limits). Deleted endpoints and revoked or expired keys do not count.
 */
import { Refused } from './refusals';

export const LIMITS = {
  /** Webhook endpoints of an account, deleted ones left out. */
  webhook_endpoints: 20,
  /** Client keys of an account, revoked ones left out. */
  client_keys: 100,
  /** API keys of one person, revoked and expired ones left out. */
  api_keys_per_person: 50,
} as const;

export type LimitName = keyof typeof LIMITS;

/** Refuses the create that would pass the limit `name`. */
export function limitReached(name: LimitName, what: string): Refused {
  const value = LIMITS[name];
  return new Refused(
    'limit_reached',
    `${what} is limited to ${value}: delete or revoke one before creating another`,
    { limit: { name, value } },
  );
}
