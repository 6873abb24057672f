/**
 * API keys (docs/api.md): made with a secret shown once (api-key-secrets.ts), never stronger
 * than their user's role nor the key that makes them; revoked, never deleted.
 */
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '../../contract/api-keys';
import { ROLE_PERMISSIONS, type Permission } from '../../contract/auth-status';
import { newId } from '../ids';
import type { ApiKeyRecord, Principal, UserRecord } from '../store/records';
import { mapPage, type Page, type PageRequest } from '../store/pages';
import type { Store } from '../store/store';
import { generateSecret, hashSecret, obfuscate } from './api-key-secrets';
import { audit } from './audit';
import type { Clock } from './clock';
import { limitReached, LIMITS } from './limits';
import { notFound, Refused } from './refusals';

export interface NewApiKey {
  readonly user: UserRecord;
  readonly name: string;
  /** Default: all the ceiling allows. */
  readonly permissions?: readonly Permission[];
  readonly expiresInDays?: number;
  /** The permissions of the key that makes this one, which bound it; none for the operator. */
  readonly creatorPermissions?: readonly Permission[];
  /** Who makes it; null: the operator. */
  readonly actor: Principal | null;
}

/** What the API key endpoints (and the operator's command line) do. */
export class ApiKeys {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, page: PageRequest): Promise<Page<ApiKey>> {
    return mapPage(await this.store.listApiKeys(principal.account.id, page), publicApiKey);
  }

  create(principal: Principal, request: CreateApiKeyRequest): Promise<CreatedApiKey> {
    return this.issue({
      user: principal.user,
      name: request.name,
      ...(request.permissions ? { permissions: request.permissions } : {}),
      ...(request.expires_in_days !== undefined ? { expiresInDays: request.expires_in_days } : {}),
      creatorPermissions: principal.permissions,
      actor: principal,
    });
  }

  async revoke(principal: Principal, id: string): Promise<ApiKey> {
    const key = await this.revokeIn(principal.account.id, id, principal);
    if (!key) throw notFound(`The API key ${id}`);
    return key;
  }

  /** Revokes a key of `accountId`; undefined when it has none of that id. */
  async revokeIn(
    accountId: string,
    id: string,
    actor: Principal | null,
  ): Promise<ApiKey | undefined> {
    const at = this.clock().toISOString();
    const key = await this.store.revokeApiKey(
      accountId,
      id,
      at,
      audit(accountId, at, 'api_key.revoke', actor, id, {}),
    );
    return key && publicApiKey(key);
  }

  /**
   * A key for `input.user`. Its permissions default to the role's, and may never exceed them,
   * nor (when a key creates it) the creating key's own: a key cannot mint a stronger key.
   */
  async issue(input: NewApiKey): Promise<CreatedApiKey> {
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
    const now = this.clock();
    const at = now.toISOString();
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
          : new Date(now.getTime() + input.expiresInDays * 86_400_000).toISOString(),
      revoked_at: null,
    };
    const entry = audit(key.account_id, at, 'api_key.create', input.actor, key.id, {
      name: key.name,
      permissions,
    });
    if (!(await this.store.insertApiKey(key, entry, LIMITS.api_keys_per_person)))
      throw limitReached('api_keys_per_person');
    return { ...publicApiKey(key), secret };
  }
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
