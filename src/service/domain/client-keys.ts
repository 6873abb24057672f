/**
 * Client keys (docs/delivery.md): `ck_` + 24 base62 characters from the CSPRNG. Not a
 * secret (apps carry it in their code), so it is stored and shown as it is; it grants only
 * the delivery reads of its account and, when scoped, of its apps.
 */
import { randomBytes } from 'node:crypto';

import {
  CLIENT_KEY_PREFIX,
  type ClientKey,
  type CreateClientKeyRequest,
} from '../../contract/delivery';

import { newId } from '../ids';
import { mapPage, type Page, type PageRequest } from '../store/pages';

import type { ClientKeyRecord, Principal } from '../store/records';
import type { Store } from '../store/store';
import { audit } from './audit';
import type { Clock } from './clock';
import { notFound } from './refusals';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_LENGTH = 24;

export function generateClientKey(): string {
  const chars: string[] = [];
  while (chars.length < KEY_LENGTH) {
    for (const byte of randomBytes(32)) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && chars.length < KEY_LENGTH) chars.push(BASE62[byte % 62] as string);
    }
  }
  return `${CLIENT_KEY_PREFIX}${chars.join('')}`;
}

/**
 * The one rule of what a client key reads: the app `appId` of its own account, while it is
 * not revoked and is scoped to every app or to this one.
 */
export function keyCanRead(
  key: Pick<ClientKeyRecord, 'apps' | 'revoked_at'>,
  appId: string,
): boolean {
  return key.revoked_at === null && (key.apps === null || key.apps.includes(appId));
}

/** What the client-key endpoints do, for the caller's account. */
export class ClientKeys {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, page: PageRequest): Promise<Page<ClientKey>> {
    return mapPage(await this.store.listClientKeys(principal.account.id, page), publicClientKey);
  }

  async create(principal: Principal, request: CreateClientKeyRequest): Promise<ClientKey> {
    const key = await this.issue({
      accountId: principal.account.id,
      name: request.name,
      apps: request.apps,
      actor: principal.key.id,
    });
    return publicClientKey(key);
  }

  async revoke(principal: Principal, id: string): Promise<ClientKey> {
    const accountId = principal.account.id;
    const at = this.clock().toISOString();
    const key = await this.store.revokeClientKey(
      accountId,
      id,
      at,
      audit(accountId, at, 'client_key.revoke', principal.key.id, id, {}),
    );
    if (!key) throw notFound(`The client key ${id}`);
    return publicClientKey(key);
  }

  /** A new key of `accountId`; `actor` null: the operator's (the demo account's). */
  async issue(input: {
    accountId: string;
    name: string;
    apps: readonly string[] | undefined;
    actor: string | null;
  }): Promise<ClientKeyRecord> {
    const now = this.clock();
    const at = now.toISOString();
    const key: ClientKeyRecord = {
      id: newId('ckey_', now.getTime()),
      account_id: input.accountId,
      name: input.name,
      key: generateClientKey(),
      apps: input.apps === undefined ? null : [...input.apps],
      created_at: at,
      revoked_at: null,
    };
    await this.store.insertClientKey(
      key,
      audit(key.account_id, at, 'client_key.create', input.actor, key.id, {
        name: key.name,
        apps: key.apps,
      }),
    );
    return key;
  }
}

/** A client key as the API shows it. */
export function publicClientKey(key: ClientKeyRecord): ClientKey {
  return {
    id: key.id,
    name: key.name,
    key: key.key,
    apps: key.apps === null ? null : [...key.apps],
    created_at: key.created_at,
    revoked_at: key.revoked_at,
  };
}
