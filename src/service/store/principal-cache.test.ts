/**
 * The store caches principals by key hash; a change made by another connection (the
 * operator's command line) or through this one must show on the very next lookup.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../domain/api-key-secrets';
import { startTestService, type TestService } from '../testing/test-service';
import { openDatabase } from './database';
import { SqliteStore } from './sqlite-store';

let service: TestService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('the principal cache', () => {
  it('sees a revocation made by another connection on the next lookup', async () => {
    service = await startTestService();
    const hash = hashSecret(service.adminKey);
    const first = await service.store.findPrincipalByKeyHash(hash);
    expect(first?.key.revoked_at).toBeNull();
    expect(await service.store.findPrincipalByKeyHash(hash)).toBe(first);

    const other = new SqliteStore(openDatabase(service.dataDir));
    const at = new Date().toISOString();
    await other.revokeApiKey(service.account.account_id, first?.key.id ?? '', at, {
      account_id: service.account.account_id,
      at,
      action: 'api_key.revoke',
      actor: null,
      target_id: first?.key.id ?? '',
      detail: {},
    });
    await other.close();

    expect((await service.store.findPrincipalByKeyHash(hash))?.key.revoked_at).toBe(at);
  });

  it('sees a change made through its own connection on the next lookup', async () => {
    service = await startTestService();
    const hash = hashSecret(service.adminKey);
    const first = await service.store.findPrincipalByKeyHash(hash);
    const at = new Date().toISOString();
    await service.store.touchApiKey(first?.key.id ?? '', at);
    expect((await service.store.findPrincipalByKeyHash(hash))?.key.last_used_at).toBe(at);
  });

  it('sees a revocation made through its own connection on the next lookup', async () => {
    // Own writes do not move PRAGMA data_version: the store counts them itself.
    service = await startTestService();
    const hash = hashSecret(service.adminKey);
    const first = await service.store.findPrincipalByKeyHash(hash);
    const at = new Date().toISOString();
    await service.store.revokeApiKey(service.account.account_id, first?.key.id ?? '', at, {
      account_id: service.account.account_id,
      at,
      action: 'api_key.revoke',
      actor: null,
      target_id: first?.key.id ?? '',
      detail: {},
    });
    expect((await service.store.findPrincipalByKeyHash(hash))?.key.revoked_at).toBe(at);
  });

  it('does not keep unknown keys', async () => {
    service = await startTestService();
    expect(await service.store.findPrincipalByKeyHash(hashSecret('sk_unknown'))).toBeUndefined();
  });
});
