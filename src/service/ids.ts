/**
 * Ids: a prefix naming the kind (`key_`, `cfg_`, `acc_`, `usr_`) and a ULID-like body: 10
 * characters of time, then 16 of randomness, Crockford base32, so ids sort by creation.
 */
import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_LENGTH = 16;

/**
 * Monotonic within the process, as ULID's monotonic mode: an id made in the same
 * millisecond as the one before (or with an earlier clock) takes that one's time and its
 * randomness plus one, so lists ordered by id are in the order things were made.
 */
const last = { time: -1, random: [] as number[] };

export function newId(prefix: string, now = Date.now()): string {
  let time: number;
  let random: number[];
  if (now <= last.time && last.random.length === RANDOM_LENGTH) {
    time = last.time;
    random = incremented(last.random);
  } else {
    time = now;
    random = [...randomBytes(RANDOM_LENGTH)].map((byte) => byte % 32);
  }
  last.time = time;
  last.random = random;
  let timeText = '';
  let rest = time;
  for (let i = 0; i < 10; i++) {
    timeText = CROCKFORD[rest % 32] + timeText;
    rest = Math.floor(rest / 32);
  }
  return `${prefix}${timeText}${random.map((digit) => CROCKFORD[digit]).join('')}`;
}

/** The base-32 digits plus one (wrapping to zeros past the last, which 32^16 makes moot). */
function incremented(digits: readonly number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if ((next[i] as number) < 31) {
      next[i] = (next[i] as number) + 1;
      return next;
    }
    next[i] = 0;
  }
  return next;
}
