/**
 * Authentication answers at once where the store can (SQLite), and through a promise where
 * it must wait (PostgreSQL) or write (the key's last use, once a minute). The API suites run
 * both stores; this holds the fast path in place.
 */
import type { FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpProblem } from '../http-problem';
import { ok } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import { hashSecret } from '../domain/api-key-secrets';
import { authenticate, rememberedHashes } from './authentication';

let service: TestService;
let now = new Date('2026-01-01T00:00:00.000Z');
const clock = () => now;

beforeEach(async () => {
  service = await startTestService({ clock });
});
afterEach(async () => {
  await service.close();
});

function requestWith(key: string): FastifyRequest {
  // Authentication reads the header and keeps its lookup on the request: nothing else.
  return { headers: { authorization: `Bearer ${key}` } } as unknown as FastifyRequest;
}

describe('authenticate', () => {
  it('answers a known key at once on SQLite, and waits only to note its last use', async () => {
    expect(service.storeKind).toBe('sqlite');
    const first = authenticate(service.store, clock, requestWith(service.adminKey));
    expect(first).toBeInstanceOf(Promise); // never used: last_used_at is written
    const principal = await first;
    expect(principal.user.id).toBe(service.account.user_id);

    const again = authenticate(service.store, clock, requestWith(service.adminKey));
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual({
      ...principal,
      key: { ...principal.key, last_used_at: now.toISOString() },
    });

    now = new Date(now.getTime() + 60_000);
    expect(authenticate(service.store, clock, requestWith(service.adminKey))).toBeInstanceOf(
      Promise,
    );
  });

  it('throws at once for a bad key, whichever way the lookup goes', () => {
    for (const key of ['', 'sk_short', `sk_${'A'.repeat(40)}`]) {
      expect(() => authenticate(service.store, clock, requestWith(key))).toThrow(HttpProblem);
    }
  });

  it('remembers the hash of a key in use, never of an unknown or revoked one', async () => {
    const unknown = `sk_${'B'.repeat(40)}`;
    const revoked = await service.keyFor('editor');
    await authenticate(service.store, clock, requestWith(service.adminKey));
    const revokedId = (await authenticate(service.store, clock, requestWith(revoked))).key.id;
    expect(rememberedHashes.of(service.adminKey)).toBe(hashSecret(service.adminKey));
    const before = rememberedHashes.size;

    expect(() => authenticate(service.store, clock, requestWith(unknown))).toThrow(HttpProblem);
    expect(rememberedHashes.size).toBe(before);

    await ok(service, service.adminKey, 'revokeApiKey', { params: { id: revokedId } });
    // The revocation applies at once, and the key is forgotten.
    await expect(async () =>
      authenticate(service.store, clock, requestWith(revoked)),
    ).rejects.toThrow('The API key was revoked');
    expect(rememberedHashes.size).toBe(before - 1);
  });

  it('forgets a key once it has expired', async () => {
    const expiring = await service.keyFor('viewer', { expiresInDays: 1 });
    await authenticate(service.store, clock, requestWith(expiring));
    const before = rememberedHashes.size;
    now = new Date(now.getTime() + 86_400_000);
    expect(() => authenticate(service.store, clock, requestWith(expiring))).toThrow(
      'The API key has expired',
    );
    expect(rememberedHashes.size).toBe(before - 1);
  });

  it('keeps at most a thousand keys', () => {
    for (let i = 0; i < 1_500; i++) rememberedHashes.keep(`sk_fake${i}`, `hash${i}`);
    expect(rememberedHashes.size).toBeLessThanOrEqual(1_000);
    expect(rememberedHashes.size).toBeGreaterThan(0);
  });
});
