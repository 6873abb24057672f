/**
 * Standard Webhooks signatures: the receiver checks with its own library (or a few lines of
 * HMAC) that a delivery comes from us, unaltered, and recent.
 */
import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../contract/webhooks';

export interface SignatureHeaders {
  /** The delivery id (`msg_…`), the same on every attempt: receivers dedupe on it. */
  readonly 'webhook-id': string;
  /** Unix seconds of this attempt: receivers refuse stale ones (replays). */
  readonly 'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` */
  readonly 'webhook-signature': string;
}

/** The HMAC key a `whsec_…` secret carries (base64 after the prefix). */
export function signingKey(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX))
    throw new Error('a webhook secret starts with whsec_');
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  if (key.length === 0) throw new Error('a webhook secret carries a key');
  return key;
}

/** The headers that sign `body` as delivery `id`, sent at `timestampSeconds`. */
export function signDelivery(
  id: string,
  timestampSeconds: number,
  body: string,
  secret: string,
): SignatureHeaders {
  const timestamp = String(Math.floor(timestampSeconds));
  const signature = createHmac('sha256', signingKey(secret))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}
