/**
 * Accounts, users and API keys: what the operator's command line and the key endpoints do.
 */
import type { ApiKey, CreatedApiKey } from '../../contract/api-keys';
import { ROLE_PERMISSIONS, type Permission, type Role } from '../../contract/auth-status';
import { validateConfigText } from '../../configs/validation/validate';
import { Refused } from './refusals';
import { newId } from '../ids';
import type { ApiKeyRecord, AuditRecord, UserRecord } from '../store/records';
import type { Store } from '../store/store';
import { generateSecret, hashSecret, obfuscate } from './api-key-secrets';

/** A new account's first config: empty, published and live, so an edit always has a source. */
export const EMPTY_CONFIG_YAML = '# Apps this account provisions.\napps: []\nab_tests: []\n';

export interface CreatedAccount {
  readonly account_id: string;
  readonly account_name: string;
  readonly user_id: string;
  readonly email: string;
  readonly role: Role;
  readonly live_config_id: string;
}

export async function createAccount(
  store: Store,
  input: {
    name: string;
    ownerEmail: string;
    accountType?: string;
    initialYaml?: string;
    now: Date;
  },
): Promise<CreatedAccount> {
  const at = input.now.toISOString();
  const accountId = newId('acc_');
  const userId = newId('usr_');
  const configId = newId('cfg_');
  const yaml = input.initialYaml ?? EMPTY_CONFIG_YAML;
  const label = 'Initial config';
  const report = validateConfigText(yaml, { type: 'published', name: label });
  if (!report.valid) throw new Error('the initial config of an account must be valid');
  await store.createAccount({
    account: {
      id: accountId,
      name: input.name,
      account_type: input.accountType ?? 'standard',
      idp_organization_id: newId('org_'),
      created_at: at,
    },
    owner: {
      id: userId,
      account_id: accountId,
      email: input.ownerEmail,
      role: 'admin',
      idp_user_id: newId('idp_'),
      created_at: at,
    },
    firstConfig: {
      id: configId,
      account_id: accountId,
      kind: 'published',
      label,
      yaml: report.yaml ?? yaml,
      revision: 1,
      base_config_id: null,
      valid: true,
      error_count: 0,
      warning_count: report.warning_count,
      issues: report.issues,
      created_at: at,
      updated_at: at,
      published_at: at,
    },
    history: {
      account_id: accountId,
      config_id: configId,
      action: 'create',
      at,
      revision: 1,
      summary: label,
      api_key_id: null,
      api_key_name: null,
      actor_email: null,
      operations: [],
      applied_paths: [],
    },
    audit: audit(accountId, at, 'account.create', null, accountId, {
      name: input.name,
      owner: input.ownerEmail,
    }),
  });
  return {
    account_id: accountId,
    account_name: input.name,
    user_id: userId,
    email: input.ownerEmail,
    role: 'admin',
    live_config_id: configId,
  };
}

export async function createUser(
  store: Store,
  input: { accountId: string; email: string; role: Role; now: Date },
): Promise<UserRecord> {
  if (!(await store.getAccount(input.accountId))) {
    throw new Refused('not_found', `There is no account ${input.accountId}`);
  }
  const at = input.now.toISOString();
  const user: UserRecord = {
    id: newId('usr_'),
    account_id: input.accountId,
    email: input.email,
    role: input.role,
    idp_user_id: newId('idp_'),
    created_at: at,
  };
  await store.createUser(
    user,
    audit(input.accountId, at, 'user.create', null, user.id, {
      email: input.email,
      role: input.role,
    }),
  );
  return user;
}

/**
 * A key for `user`. Its permissions default to the role's, and may never exceed them, nor
 * (when a key creates it) the creating key's own: a key cannot mint a stronger key.
 */
export async function createApiKey(
  store: Store,
  input: {
    user: UserRecord;
    name: string;
    permissions?: readonly Permission[];
    expiresInDays?: number;
    creatorPermissions?: readonly Permission[];
    actor: string | null;
    now: Date;
  },
): Promise<CreatedApiKey> {
  const ceiling = ROLE_PERMISSIONS[input.user.role].filter(
    (permission) => !input.creatorPermissions || input.creatorPermissions.includes(permission),
  );
  const permissions = input.permissions ? [...input.permissions] : ceiling;
  const beyond = permissions.filter((permission) => !ceiling.includes(permission));
  if (beyond.length > 0) {
    throw new Refused(
      'beyond_permissions',
      `A key of this ${input.user.role} can grant at most ${ceiling.join(', ') || 'nothing'}; not ${beyond.join(', ')}`,
    );
  }
  const secret = generateSecret();
  const at = input.now.toISOString();
  const key: ApiKeyRecord = {
    id: newId('key_'),
    account_id: input.user.account_id,
    user_id: input.user.id,
    name: input.name,
    key_hash: hashSecret(secret),
    obfuscated_value: obfuscate(secret),
    permissions,
    created_at: at,
    last_used_at: null,
    expires_at:
      input.expiresInDays === undefined
        ? null
        : new Date(input.now.getTime() + input.expiresInDays * 86_400_000).toISOString(),
    revoked_at: null,
  };
  await store.insertApiKey(
    key,
    audit(key.account_id, at, 'api_key.create', input.actor, key.id, {
      name: key.name,
      permissions,
    }),
  );
  return { ...publicApiKey(key), secret };
}

/** A key as the API shows it: never its hash, never its secret. */
export function publicApiKey(key: ApiKeyRecord): ApiKey {
  return {
    id: key.id,
    name: key.name,
    obfuscated_value: key.obfuscated_value,
    permissions: [...key.permissions],
    created_at: key.created_at,
    last_used_at: key.last_used_at,
    expires_at: key.expires_at,
    revoked_at: key.revoked_at,
  };
}

export function audit(
  accountId: string,
  at: string,
  action: string,
  actor: string | null,
  targetId: string | null,
  detail: Record<string, unknown>,
): AuditRecord {
  return { account_id: accountId, at, action, actor, target_id: targetId, detail };
}
