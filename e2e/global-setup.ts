/**
 * Seeds the run's data directory through the operator's command line, as an operator would,
 * while the service (started by `webServer`) runs on it: an account with an admin, an editor
 * and a viewer, their keys, a key that expires in 3 days, a revoked key, and a second account
 * with its own key, and a third account (an admin and an editor) whose configs the editor's
 * journeys change. What the tests need is written to SEED_FILE, which the fixtures read.
 */
import type { FullConfig } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { provisioning, SEED_FILE, type CreatedKey, type Seed, type SeedKey } from './seed';

interface CreatedAccount {
  account_id: string;
  account_name: string;
  user_id: string;
  live_config_id: string;
}

function createAccount(name: string, ownerEmail: string): CreatedAccount {
  return provisioning([
    ...['accounts', 'create', '--name', name],
    ...['--owner-email', ownerEmail],
  ]) as CreatedAccount;
}

function createUser(accountId: string, email: string, role: string): string {
  const user = provisioning([
    ...['users', 'create', '--account', accountId],
    ...['--email', email, '--role', role],
  ]) as { user_id: string };
  return user.user_id;
}

function createKey(userId: string, name: string, extra: string[] = []): CreatedKey {
  return provisioning(['keys', 'create', '--user', userId, '--name', name, ...extra]) as CreatedKey;
}

/** What the whoami panel should show for a key: the service's own answer. */
async function authStatus(baseURL: string, key: CreatedKey): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseURL}/api/v1/auth/status`, {
    headers: { authorization: `Bearer ${key.secret}` },
  });
  if (!response.ok) throw new Error(`GET /auth/status for ${key.name}: ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

export default async function globalSetup(_config: FullConfig): Promise<void> {
  const baseURL = process.env.E2E_BASE_URL;
  if (!baseURL) throw new Error('playwright.config.ts sets E2E_BASE_URL');

  const acme = createAccount('Acme', 'ada@acme.test');
  const editorId = createUser(acme.account_id, 'eddie@acme.test', 'editor');
  const viewerId = createUser(acme.account_id, 'vera@acme.test', 'viewer');
  const globex = createAccount('Globex', 'gus@globex.test');
  const initech = createAccount('Initech', 'ines@initech.test');
  const initechEditorId = createUser(initech.account_id, 'ed@initech.test', 'editor');
  const umbrella = createAccount('Umbrella', 'uma@umbrella.test');
  const umbrellaEditorId = createUser(umbrella.account_id, 'ulf@umbrella.test', 'editor');
  const umbrellaViewerId = createUser(umbrella.account_id, 'una@umbrella.test', 'viewer');

  const created: Record<keyof Seed['keys'], CreatedKey> = {
    admin: createKey(acme.user_id, 'Ada main key'),
    editor: createKey(editorId, 'Eddie work key'),
    viewer: createKey(viewerId, 'Vera read key'),
    expiring: createKey(editorId, 'Eddie short-lived key', ['--expires-in-days', '3']),
    revoked: createKey(acme.user_id, 'Ada old key'),
    otherAccount: createKey(globex.user_id, 'Gus main key'),
    configsAdmin: createKey(initech.user_id, 'Ines main key'),
    configsEditor: createKey(initechEditorId, 'Ed work key'),
    abAdmin: createKey(umbrella.user_id, 'Uma main key'),
    abEditor: createKey(umbrellaEditorId, 'Ulf work key'),
    abViewer: createKey(umbrellaViewerId, 'Una read key'),
  };

  const keys = {} as Seed['keys'];
  for (const [role, key] of Object.entries(created) as [keyof Seed['keys'], CreatedKey][]) {
    const seedKey: SeedKey = {
      id: key.id,
      userId: key.user_id,
      name: key.name,
      secret: key.secret,
      obfuscatedValue: key.obfuscated_value,
      permissions: key.permissions,
      expiresAt: key.expires_at,
      status: role === 'revoked' ? null : await authStatus(baseURL, key),
    };
    keys[role] = seedKey;
  }
  provisioning(['keys', 'revoke', '--id', created.revoked.id]);

  const seed: Seed = {
    baseURL,
    account: { id: acme.account_id, name: acme.account_name },
    otherAccount: { id: globex.account_id, name: globex.account_name },
    configsAccount: {
      id: initech.account_id,
      name: initech.account_name,
      liveConfigId: initech.live_config_id,
    },
    abTestsAccount: { id: umbrella.account_id, name: umbrella.account_name },
    keys,
  };
  mkdirSync(dirname(SEED_FILE), { recursive: true });
  writeFileSync(SEED_FILE, JSON.stringify(seed, null, 2));
}
