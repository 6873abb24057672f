/**
 * The store caches principals by key hash; a change made through this connection must show
 * on the very next lookup, one made by another connection (the operator's command line)
 * within a millisecond; writes that change no principal leave the cache as it is.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testDelivery } from '../domain/webhook-records';
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
  it('sees a revocation made by another connection within a millisecond', async () => {
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

    // The version of the file is read again once the last reading is a millisecond old.
    await vi.waitFor(async () => {
      expect((await service?.store.findPrincipalByKeyHash(hash))?.key.revoked_at).toBe(at);
    });
  });

  it('keeps its answers across writes that change no principal: a webhook claim, a touch', async () => {
    service = await startTestService();
    const store = service.store as SqliteStore;
    const reads = vi.spyOn(
      store as unknown as { readPrincipal: (keyHash: string) => unknown },
      'readPrincipal',
    );
    const hash = hashSecret(service.adminKey);
    const first = await store.findPrincipalByKeyHash(hash);
    expect(reads).toHaveBeenCalledTimes(1);

    const accountId = service.account.account_id;
    const webhook = {
      id: 'wh_claims',
      account_id: accountId,
      url: 'https://hooks.example.com/claims',
      events: ['config.published' as const],
      description: '',
      secret: 'whsec_test',
      created_at: '2026-11-22T10:00:00.000Z',
      deleted_at: null,
    };
    const audit = { account_id: accountId, at: webhook.created_at, action: 'webhook.create' };
    await store.insertWebhook(webhook, { ...audit, actor: null, target_id: null, detail: {} }, 20);
    await store.insertOutboxMessage(testDelivery(webhook, webhook.created_at));
    const [claimed] = await store.claimDueOutbox(new Date().toISOString(), 10, 30_000);
    const at = new Date().toISOString();
    await store.recordOutboxAttempt(claimed?.id ?? '', {
      at,
      delivered: true,
      response_status: 200,
      error: null,
      next_attempt_at: null,
    });
    await store.touchApiKey(first?.key.id ?? '', at);

    const again = await store.findPrincipalByKeyHash(hash);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(again?.key.last_used_at).toBe(at);
    expect(again?.key.revoked_at).toBeNull();
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
