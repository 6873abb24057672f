/**
 * Client keys (docs/delivery.md): `ck_` + 24 base62 characters from the CSPRNG. Not a
 * secret (apps carry it in their code), so it is stored and shown as it is; it grants only
 * the delivery reads of its account and, when scoped, of its apps.
 */
import { randomBytes } from 'node:crypto';

import { CLIENT_KEY_PREFIX, type ClientKey } from '../../contract/delivery';

import { audit } from '../domain/accounts';

import { newId } from '../ids';

import type { Store } from '../store/store';
import type { ClientKeyRecord } from '../store/records';

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

export async function createClientKey(
  store: Store,
  input: {
    accountId: string;
    name: string;
    apps: readonly string[] | undefined;
    actor: string | null;
    now: Date;
  },
): Promise<ClientKeyRecord> {
  const at = input.now.toISOString();
  const key: ClientKeyRecord = {
    id: newId('ckey_', input.now.getTime()),
    account_id: input.accountId,
    name: input.name,
    key: generateClientKey(),
    apps: input.apps === undefined ? null : [...input.apps],
    created_at: at,
    revoked_at: null,
  };
  await store.insertClientKey(
    key,
    audit(key.account_id, at, 'client_key.create', input.actor, key.id, {
      name: key.name,
      apps: key.apps,
    }),
  );
  return key;
}

export async function revokeClientKey(
  store: Store,
  input: { accountId: string; id: string; actor: string | null; now: Date },
): Promise<ClientKeyRecord | undefined> {
  const at = input.now.toISOString();
  return store.revokeClientKey(
    input.accountId,
    input.id,
    at,
    audit(input.accountId, at, 'client_key.revoke', input.actor, input.id, {}),
  );
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
