import { describe, expect, it } from 'vitest';
import { PasswordBlocklist } from '../sign-in/password-blocklist';
import { normalizedPassword, PasswordPolicy } from './passwords';

const tiny = { has: (word: string) => ['password', 'qwertyuiopasdfgh'].includes(word) };

describe('the password rules', () => {
  const policy = new PasswordPolicy(tiny);

  it('wants 15 to 128 characters after NFKC, counted in characters, not bytes', () => {
    expect(policy.problemWith('fourteen chars', 'a@b.co')).toMatch(
      /at least 15 characters \(it has 14\)/,
    );
    expect(policy.problemWith('fifteen chars!!', 'a@b.co')).toBeUndefined();
    // Fourteen emoji are 28 UTF-16 units but 14 characters.
    expect(policy.problemWith('🙂'.repeat(14), 'a@b.co')).toMatch(/it has 14/);
    expect(policy.problemWith('x'.repeat(129), 'a@b.co')).toMatch(/at most 128/);
    // Full-width letters are the letters.
    expect(normalizedPassword('ｐａｓｓｗｏｒｄ')).toBe('password');
  });

  it('refuses a common password, said again to reach the length, and the email', () => {
    expect(policy.problemWith('QWERTYUIOPasdfgh', 'a@b.co')).toMatch(/too common/);
    expect(policy.problemWith('passwordpasswordpassword', 'a@b.co')).toMatch(/too common/);
    expect(policy.problemWith('ｐａｓｓｗｏｒｄｐａｓｓｗｏｒｄ', 'a@b.co')).toMatch(/too common/);
    expect(policy.problemWith('ana.lopez@acme.com', 'ana.lopez@acme.com')).toMatch(/email/);
    expect(policy.problemWith('correct horse battery staple', 'a@b.co')).toBeUndefined();
  });

  it('hashes with scrypt N=2^17 in a self-describing form, and verifies only the same password', async () => {
    const stored = await policy.hash('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$17\$8\$1\$[\w+/=]+\$[\w+/=]+$/);
    expect(await policy.verify(stored, 'correct horse battery staple')).toBe(true);
    expect(await policy.verify(stored, 'correct horse battery stapl')).toBe(false);
    // NFKC: the full-width form of the same password is the same password.
    expect(await policy.verify(stored, 'ｃｏｒｒｅｃｔ horse battery staple')).toBe(true);
    expect(await policy.verify(null, 'correct horse battery staple')).toBe(false);
    expect(await policy.verify('md5$abc', 'x')).toBe(false);
  });
});

describe('the shipped blocklist', () => {
  it('holds over 100,000 common passwords, keyboard walks and stretched ones', async () => {
    const blocklist = await PasswordBlocklist.load();
    expect(blocklist.size).toBeGreaterThanOrEqual(100_000);
    for (const word of ['123456', 'password', 'qwertyuiop', '1qaz2wsx', 'iloveyou']) {
      expect(blocklist.has(word), word).toBe(true);
    }
    expect(blocklist.has('')).toBe(false);
    const policy = new PasswordPolicy(blocklist);
    expect(policy.problemWith('password123456789', 'a@b.co')).toMatch(/too common/);
    expect(policy.problemWith('a quiet harbour at dawn', 'a@b.co')).toBeUndefined();
  });
});
