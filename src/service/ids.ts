/**
 * Ids: a prefix naming the kind (`key_`, `cfg_`, `acc_`, `usr_`) and a ULID-like body: 10
 * characters of time, then 16 of randomness, Crockford base32, so ids sort by creation.
 */
import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  let rest = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  const random = [...randomBytes(16)].map((byte) => CROCKFORD[byte % 32]).join('');
  return `${prefix}${time}${random}`;
}
