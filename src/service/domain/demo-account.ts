/**
 * The demo account `npm start` creates on an empty data directory: a live config with a few
 * apps, comments, and one running A/B test, an admin key printed once, and a client key
 * so that an app (or curl) can read its live view at once; and a staging environment beside
 * it, a copy of the same config.
 */
import { ROLE_PERMISSIONS } from '../../contract/auth-status';
import { Environments } from './environments';
import { createInvitation } from './invitations';
import type { Store } from '../store/store';
import { Accounts, type CreatedAccount } from './accounts';
import { ApiKeys } from './api-keys';
import { ClientKeys } from './client-keys';

export const DEMO_CONFIG_YAML = `# Apps this account provisions. Edit them here or through the forms.
apps:
  # The web shop.
  - id: checkout
    name: Checkout
    platform: web
    settings:
      theme: dark # dark or light
      button_size: medium
      max_items: 20
  - id: ios-app
    name: Shop for iOS
    platform: ios
    settings:
      onboarding: true
  - id: pricing-service
    name: Pricing service
    platform: server
    enabled: false

# Experiments on those apps.
ab_tests:
  - id: bigger-button
    app: checkout
    description: Does a bigger checkout button sell more?
    status: running
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
        settings:
          button_size: large
    started_at: 2026-11-01T09:00:00.000Z
`;

export interface DemoAccount {
  readonly account: CreatedAccount;
  readonly apiKey: string;
  /** `ck_…`: reads every demo app's live view (not a secret). */
  readonly clientKey: string;
  /** The owner's one-time link (a path) to set a password and sign in: no identity provider needed. */
  readonly signInPath: string;
}

export async function createDemoAccount(store: Store, now: Date): Promise<DemoAccount> {
  const clock = () => now;
  const account = await new Accounts(store, clock).create({
    name: 'Demo',
    ownerEmail: 'demo@example.com',
    accountType: 'production',
    initialYaml: DEMO_CONFIG_YAML,
  });
  const owner = await store.getUser(account.user_id);
  if (!owner) throw new Error('the demo owner was not created');
  // A staging environment beside it, started from the same config, to try changes in first.
  const production = await store.getAccount(account.account_id);
  if (!production) throw new Error('the demo account was not created');
  await new Environments(store, clock).create(
    {
      key: null,
      session: null,
      permissions: ROLE_PERMISSIONS[owner.role],
      user: owner,
      account: production,
    },
    { name: 'Staging', account_type: 'staging', copy_from: account.account_id },
  );
  const apiKeys = new ApiKeys(store, clock);
  const key = await apiKeys.issue({ user: owner, name: 'Demo admin key', actor: null });
  const clientKey = await new ClientKeys(store, clock).issue({
    accountId: account.account_id,
    name: 'Demo apps',
    apps: undefined,
    actor: null,
  });
  const link = await createInvitation(store, {
    accountId: account.account_id,
    email: owner.email,
    role: owner.role,
    by: null,
    now,
  });
  return {
    account,
    apiKey: key.secret,
    clientKey: clientKey.key,
    signInPath: `/invitations/${link.token}`,
  };
}
