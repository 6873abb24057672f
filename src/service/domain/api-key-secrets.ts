/**
 * API key secrets (docs/api.md): `sk_` + 34 base62 characters from the CSPRNG (about 202 bits)
 * + a 6-character base62 CRC-32 checksum, in the style of GitHub's tokens: a typo or a
 * truncated paste is refused without a database lookup. Only the SHA-256 is stored.
 */
import { hash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '../../contract/api-keys';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 34;
const CHECKSUM_LENGTH = 6;
const SECRET_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`,
);

export function generateSecret(): string {
  const chars: string[] = [];
  while (chars.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && chars.length < RANDOM_LENGTH) chars.push(BASE62[byte % 62] as string);
    }
  }
  const body = chars.join('');
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/** Whether a string has the shape and checksum of a key this server issued. */
export function isWellFormedSecret(secret: string): boolean {
  if (!SECRET_PATTERN.test(secret)) return false;
  const body = secret.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + RANDOM_LENGTH);
  return secret.endsWith(checksum(body));
}

/** Anything that looks like a key (or most of one), for text that is logged: a URL. */
const SECRET_LIKE = new RegExp(`${API_KEY_PREFIX}[0-9A-Za-z]{16,}`, 'g');

/** `text` with every key-like run replaced by `sk_[redacted]`. */
export function redactSecrets(text: string): string {
  // Every request's URL comes through here; most hold no prefix at all.
  if (!text.includes(API_KEY_PREFIX)) return text;
  return text.replace(SECRET_LIKE, `${API_KEY_PREFIX}[redacted]`);
}

/** SHA-256, hex. One-shot `crypto.hash`: every authenticated request hashes its key, and a
 * Hash object per call (createHash/update/digest) cost about three times as much. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** `sk_…` and the last 4 characters. */
export function obfuscate(secret: string): string {
  return `${API_KEY_PREFIX}…${secret.slice(-4)}`;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) {
    crc = (CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}
