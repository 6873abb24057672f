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
  /** Accounts (environments) of one organization. */
  accounts_per_organization: 20,
  /** Schedules of an account waiting to run. */
  pending_schedules: 100,
  /** Metrics of an account. */
  metrics: 200,
} as const;

export type LimitName = keyof typeof LIMITS;

const REFUSALS: Readonly<Record<LimitName, (value: number) => string>> = {
  webhook_endpoints: (value) =>
    `The account already has ${value} webhook endpoints, the most it may have: delete one before adding another`,
  client_keys: (value) =>
    `The account already has ${value} client keys in use, the most it may have: revoke one before creating another`,
  api_keys_per_person: (value) =>
    `This person already has ${value} active API keys, the most one may have: revoke one before creating another`,
  accounts_per_organization: (value) =>
    `The organization already has ${value} accounts, the most it may have`,
  pending_schedules: (value) =>
    `The account already has ${value} scheduled changes waiting, the most it may have: cancel one before scheduling another`,
  metrics: (value) =>
    `The account already has ${value} metrics, the most it may have: delete one before defining another`,
};

/** Refuses the create that would pass the limit `name`. */
export function limitReached(name: LimitName): Refused {
  const value = LIMITS[name];
  return new Refused('limit_reached', REFUSALS[name](value), { limit: { name, value } });
}
