/**
 * Local passwords (NIST SP 800-63B for a password used alone): at least 15 characters and
 * at most 128 after NFKC normalization, counted in code points, any characters, no
 * composition rules, refused when common (a blocklist of over 100,000) or the person's own
 * email. Kept as scrypt (N=2^17, r=8, p=1) in a self-describing string, so that the cost can
 * rise later and old hashes still verify with their own.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../contract/people';
import type { PasswordRules } from './password-sign-ins';

/** Which passwords are too common to choose (sign-in/password-blocklist.ts loads them). */
export interface Blocklist {
  has(normalizedLowerCase: string): boolean;
}

const COST = { log2N: 17, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

export function normalizedPassword(password: string): string {
  return password.normalize('NFKC');
}

function derive(password: string, salt: Buffer, cost: { log2N: number; r: number; p: number }) {
  const N = 2 ** cost.log2N;
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is below N=2^17's 128 MiB.
  const options: ScryptOptions = { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r };
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(normalizedPassword(password), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export class PasswordPolicy implements PasswordRules {
  /** A hash nobody's password matches, verified against when no one has the email. */
  private dummy: Promise<string> | undefined;

  constructor(private readonly blocklist: Blocklist) {}

  problemWith(password: string, email: string): string | undefined {
    const normalized = normalizedPassword(password);
    const length = [...normalized].length;
    if (length < PASSWORD_MIN_LENGTH) {
      return `The password must have at least ${PASSWORD_MIN_LENGTH} characters (it has ${length}); a few words make a good one`;
    }
    if (length > PASSWORD_MAX_LENGTH) {
      return `The password may have at most ${PASSWORD_MAX_LENGTH} characters (it has ${length})`;
    }
    const lower = normalized.toLowerCase();
    if (this.blocklist.has(lower) || this.blocklist.has(repeatedUnit(lower))) {
      return 'This password is too common: it is on lists of passwords that attackers try first';
    }
    const address = email.toLowerCase();
    const localPart = address.slice(0, address.indexOf('@'));
    if (lower.includes(address) || (localPart.length >= 4 && repeatedUnit(lower) === localPart)) {
      return 'The password may not be your email address';
    }
    return undefined;
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await derive(password, salt, COST);
    return `scrypt$${COST.log2N}$${COST.r}$${COST.p}$${salt.toString('base64')}$${key.toString('base64')}`;
  }

  async verify(stored: string | null, password: string): Promise<boolean> {
    if (stored === null) {
      // The same work as a real comparison, so that time does not tell who has a password.
      this.dummy ??= this.hash(randomBytes(16).toString('base64'));
      await this.verifyAgainst(await this.dummy, password);
      return false;
    }
    return this.verifyAgainst(stored, password);
  }

  private async verifyAgainst(stored: string, password: string): Promise<boolean> {
    const [scheme, log2N, r, p, salt, key] = stored.split('$');
    if (scheme !== 'scrypt' || !log2N || !r || !p || !salt || !key) return false;
    const expected = Buffer.from(key, 'base64');
    const actual = await derive(password, Buffer.from(salt, 'base64'), {
      log2N: Number(log2N),
      r: Number(r),
      p: Number(p),
    });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}

/** "abcabcabc" -> "abc": a common word repeated to reach the length is still common. */
function repeatedUnit(text: string): string {
  for (let size = 1; size <= text.length / 2; size += 1) {
    if (text.length % size === 0 && text.slice(0, size).repeat(text.length / size) === text) {
      return text.slice(0, size);
    }
  }
  return text;
}
