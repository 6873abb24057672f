/**
 * Seals what a sign-in keeps between the redirect to the identity provider and its callback:
 * AES-256-GCM with the service's shared key, so the browser can neither read nor change it,
 * and an issue time, so that a transaction older than ten minutes is refused.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Clock } from '../domain/clock';
import type { TransactionSeal } from './sso-sign-ins';

const IV_BYTES = 12;
const TAG_BYTES = 16;
export const TRANSACTION_TTL_MS = 10 * 60_000;

export class AesTransactionSeal implements TransactionSeal {
  private readonly key: Buffer;

  /** `key`: 32 bytes, base64url (the service secret `sign_in_seal`). */
  constructor(
    key: string,
    private readonly clock: Clock,
  ) {
    this.key = Buffer.from(key, 'base64url');
    if (this.key.length !== 32) throw new Error('the transaction seal needs a 32-byte key');
  }

  seal(value: object): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const plain = JSON.stringify({ at: this.clock().getTime(), value });
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  open(sealed: string): Record<string, unknown> | undefined {
    try {
      const bytes = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      const { at, value } = JSON.parse(plain) as { at: number; value: Record<string, unknown> };
      const age = this.clock().getTime() - at;
      return age >= 0 && age <= TRANSACTION_TTL_MS ? value : undefined;
    } catch {
      return undefined;
    }
  }
}

/** A new random key for the seal. */
export function newSealKey(): string {
  return randomBytes(32).toString('base64url');
}
