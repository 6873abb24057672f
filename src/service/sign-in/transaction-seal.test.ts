import { describe, expect, it } from 'vitest';
import { manualClock } from '../testing/api';
import { AesTransactionSeal, newSealKey } from './transaction-seal';

describe('the sign-in transaction seal', () => {
  it('opens what it sealed, and nothing once ten minutes have passed', () => {
    const time = manualClock();
    const seal = new AesTransactionSeal(newSealKey(), time.clock);
    const sealed = seal.seal({ state: 's', nonce: 'n' });
    expect(sealed).not.toContain('"state"');
    expect(seal.open(sealed)).toEqual({ state: 's', nonce: 'n' });
    time.advance(10 * 60_000);
    expect(seal.open(sealed)).toEqual({ state: 's', nonce: 'n' });
    time.advance(1);
    expect(seal.open(sealed)).toBeUndefined();
  });

  it('refuses a changed byte, another key, and garbage', () => {
    const time = manualClock();
    const seal = new AesTransactionSeal(newSealKey(), time.clock);
    const sealed = seal.seal({ state: 's' });
    const bytes = Buffer.from(sealed, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    expect(seal.open(bytes.toString('base64url'))).toBeUndefined();
    expect(new AesTransactionSeal(newSealKey(), time.clock).open(sealed)).toBeUndefined();
    expect(seal.open('not sealed at all')).toBeUndefined();
    expect(seal.open('')).toBeUndefined();
  });
});
