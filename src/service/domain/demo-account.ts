/**
 * The demo account `npm start` creates on an empty data directory: a live config with a few
 * apps, comments, and one running A/B test, an admin key printed once, and a client key
 * so that an app (or curl) can read its live view at once; and a staging environment beside
 * it, a copy of the same config. The running test has metrics and two weeks of simulated
 * results (marked as simulated), so that a newcomer sees a real results page.
 */
import { ROLE_PERMISSIONS } from '../../contract/auth-status';
import { Environments } from './environments';
import { createInvitation } from './invitations';
import type { Store } from '../store/store';
import { Accounts, type CreatedAccount } from './accounts';
import { ApiKeys } from './api-keys';
import { ClientKeys } from './client-keys';
import type { CreateMetricRequest } from '../../contract/experiments';
import { configData, parseConfig } from '../../configs/parse';
import type { Principal } from '../store/records';
import { liveTestsIn, LiveTestsReader } from './experiments/live-tests';
import { liveConfigData } from './live-config-data';
import { ResultsComputation } from './experiments/results-computation';
import { seedSimulatedResults } from './experiments/simulated-results';
import { Metrics } from './metrics';

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
    metrics: [purchases, revenue]
    guardrails: [checkout-errors]
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
        settings:
          button_size: large
    started_at: 2026-11-01T09:00:00.000Z
`;

const DEMO_METRICS: readonly CreateMetricRequest[] = [
  { id: 'purchases', name: 'Purchases', kind: 'binomial', event: 'purchase' },
  { id: 'revenue', name: 'Revenue per visitor', kind: 'mean', event: 'purchase', cap: 500 },
  {
    id: 'checkout-errors',
    name: 'Checkout errors',
    kind: 'count',
    event: 'checkout_error',
    inverse: true,
  },
];

/** The demo's metrics, and 14 days of made-up visitors of its running test. */
async function seedDemoResults(store: Store, principal: Principal, now: Date): Promise<void> {
  const clock = () => now;
  const liveTests = new LiveTestsReader({
    store,
    configData: (id, stamp) => liveConfigData(store, id, stamp),
  });
  const metrics = new Metrics(store, clock, liveTests);
  for (const metric of DEMO_METRICS) await metrics.create(principal, metric);
  const accountId = principal.account.id;
  // Read from the text, not through liveTests: that would start the phase when the config went
  // live (now), not 14 days ago.
  const read = configData(parseConfig(DEMO_CONFIG_YAML));
  const test = liveTestsIn(read.ok ? read.data : undefined).get('bigger-button');
  if (!test) throw new Error('the demo test is not in the live config');
  await seedSimulatedResults({
    store,
    computation: new ResultsComputation({
      store,
      clock,
      liveTests,
      metricsOf: (id) => store.listMetrics(id),
    }),
    accountId,
    test,
    now,
    days: 14,
    unitsPerDay: 300,
    behaviour: { conversion: { control: 0.1, big: 0.125 }, meanOrder: 40, errors: 0.02 },
  });
}

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
  const principal = {
    key: null,
    session: null,
    permissions: ROLE_PERMISSIONS[owner.role],
    user: owner,
    account: production,
  };
  await new Environments(store, clock).create(principal, {
    name: 'Staging',
    account_type: 'staging',
    copy_from: account.account_id,
  });
  await seedDemoResults(store, principal, now);
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
