/**
 * The authentication plugin: `identify` answers at once where the store can (SQLite) and
 * never refuses by itself; `admit` refuses with the request's 401 or hands over the
 * principal, through a promise only when it writes the key's last use. Each app keeps its
 * own memo of key hashes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpProblem } from '../http-problem';
import { ok } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import { generateSecret, hashSecret } from '../domain/api-key-secrets';
import { RememberedHashes } from './authentication';

let service: TestService;
let now = new Date('2026-01-01T00:00:00.000Z');
const clock = () => now;

beforeEach(async () => {
  service = await startTestService({ clock });
});
afterEach(async () => {
  await service.close();
});

/**
 * A request as `identify` sees it (only its headers and the fields the plugin declares),
 * identified by the app of `on`; `atOnce` says whether identify went on without waiting.
 */
function identified(key: string | undefined, on: TestService = service) {
  const request = {
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    principal: undefined,
    keyRefusal: undefined,
  } as unknown as FastifyRequest;
  let atOnce = false;
  const finished = new Promise<void>((resolve, reject) => {
    on.app.authentication.identify.call(on.app, request, {} as FastifyReply, (error) => {
      atOnce = true;
      if (error) reject(error);
      else resolve();
    });
  });
  return { request, atOnce, finished };
}

function refusalOf(request: FastifyRequest): HttpProblem {
  try {
    service.app.authentication.admit(request);
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
  throw new Error('admitted');
}

describe('identify and admit', () => {
  it('identify a known key at once on SQLite; admit waits only to note its last use', async () => {
    expect(service.storeKind).toBe('sqlite');
    const first = identified(service.adminKey);
    expect(first.atOnce).toBe(true);
    expect(first.request.principal?.user.id).toBe(service.account.user_id);
    const admitted = service.app.authentication.admit(first.request);
    expect(admitted).toBeInstanceOf(Promise); // never used: last_used_at is written
    const principal = await admitted;

    const again = identified(service.adminKey);
    expect(again.atOnce).toBe(true);
    expect(service.app.authentication.admit(again.request)).toEqual({
      ...principal,
      key: { ...principal.key, last_used_at: now.toISOString() },
    });
    expect(principal.session).toBeNull();

    now = new Date(now.getTime() + 60_000);
    const later = identified(service.adminKey);
    expect(service.app.authentication.admit(later.request)).toBeInstanceOf(Promise);
  });

  it('admit identifies the caller itself, at once on SQLite, where no hook did', async () => {
    // The key's last use is written first, so that admitting it again has nothing to write.
    await service.app.authentication.admit(identified(service.adminKey).request);
    const bare = {
      headers: { authorization: `Bearer ${service.adminKey}` },
      principal: undefined,
      keyRefusal: undefined,
    } as unknown as FastifyRequest;
    const principal = service.app.authentication.admit(bare);
    expect(principal).not.toBeInstanceOf(Promise);
    expect(bare.principal).toBe(principal);
    expect(refusalOf({ ...bare, headers: {}, principal: undefined }).problem.code).toBe(
      'unauthenticated',
    );
  });

  it('looks the key up once a request: admit keeps what identify found', async () => {
    const editor = await service.keyFor('editor');
    const { request } = identified(editor);
    const id = request.principal?.key?.id ?? '';
    await ok(service, service.adminKey, 'revokeApiKey', { params: { id } });
    // This request was identified before the revocation; the next one is refused.
    expect((await service.app.authentication.admit(request)).key?.id).toBe(id);
    expect(identified(editor).request.keyRefusal).toBe('revoked');
  });

  it('identify refuses nothing itself; admit throws the 401 of each refusal', () => {
    const cases = [
      [undefined, 'missing', 'unauthenticated'],
      ['', 'malformed', 'api_key_invalid'],
      ['sk_short', 'malformed', 'api_key_invalid'],
      [`sk_${'A'.repeat(40)}`, 'malformed', 'api_key_invalid'], // its checksum is wrong
      [generateSecret(), 'unknown', 'api_key_invalid'],
    ] as const;
    for (const [key, refusal, code] of cases) {
      const { request, atOnce } = identified(key);
      expect(atOnce).toBe(true);
      expect(request.principal).toBeUndefined();
      expect(request.keyRefusal).toBe(refusal);
      expect(refusalOf(request).problem.code).toBe(code);
    }
  });

  it('remembers the hash of a key in use, never of an unknown or revoked one', async () => {
    const { rememberedHashes } = service.app.authentication;
    const unknown = generateSecret();
    const revoked = await service.keyFor('editor');
    identified(service.adminKey);
    const revokedId = identified(revoked).request.principal?.key?.id ?? '';
    expect(rememberedHashes.of(service.adminKey)).toBe(hashSecret(service.adminKey));
    expect(rememberedHashes.size).toBe(2);

    expect(identified(unknown).request.keyRefusal).toBe('unknown');
    expect(rememberedHashes.size).toBe(2);

    await ok(service, service.adminKey, 'revokeApiKey', { params: { id: revokedId } });
    // The revocation applies at once, and the key is forgotten.
    const after = identified(revoked).request;
    expect(after.keyRefusal).toBe('revoked');
    expect(refusalOf(after).problem.code).toBe('api_key_revoked');
    expect(rememberedHashes.size).toBe(1);
  });

  it('forgets a key once it has expired', async () => {
    const { rememberedHashes } = service.app.authentication;
    const expiring = await service.keyFor('viewer', { expiresInDays: 1 });
    expect(identified(expiring).request.principal).toBeDefined();
    expect(rememberedHashes.size).toBe(1);
    now = new Date(now.getTime() + 86_400_000);
    const { request } = identified(expiring);
    expect(request.keyRefusal).toBe('expired');
    expect(refusalOf(request).problem.code).toBe('api_key_expired');
    expect(rememberedHashes.size).toBe(0);
  });

  it('keeps the memo of each app to itself', async () => {
    const other = await startTestService({ clock });
    try {
      identified(service.adminKey);
      expect(service.app.authentication.rememberedHashes.size).toBe(1);
      expect(other.app.authentication.rememberedHashes.size).toBe(0);
      // A key of this app is unknown to the other, whose database never issued it.
      expect(identified(service.adminKey, other).request.keyRefusal).toBe('unknown');
      expect(other.app.authentication.rememberedHashes.size).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('RememberedHashes', () => {
  it('keeps at most a thousand keys', () => {
    const hashes = new RememberedHashes();
    for (let i = 0; i < 1_500; i++) hashes.keep(`sk_fake${i}`, `hash${i}`);
    expect(hashes.size).toBeLessThanOrEqual(1_000);
    expect(hashes.size).toBeGreaterThan(0);
  });
});
