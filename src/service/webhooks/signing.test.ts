import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signDelivery, signingKey } from './signing';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const body = JSON.stringify({
  type: 'config.published',
  timestamp: '2026-11-26T09:00:00.000Z',
  data: { app: 'shop', version: 3, note: 'ünïcødé ✓' },
});
const nowSeconds = () => Date.now() / 1000;

describe('Standard Webhooks signatures', () => {
  it('are accepted by the standardwebhooks library', () => {
    const headers = signDelivery('msg_abc123', nowSeconds(), body, secret);
    expect(headers['webhook-id']).toBe('msg_abc123');
    expect(headers['webhook-timestamp']).toMatch(/^[0-9]+$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('match the library’s own signature for the same id, time and body', () => {
    const at = new Date('2026-11-26T09:00:00.000Z');
    const ours = signDelivery('msg_x', at.getTime() / 1000, body, secret);
    expect(ours['webhook-timestamp']).toBe(String(at.getTime() / 1000));
    expect(ours['webhook-signature']).toBe(new Webhook(secret).sign('msg_x', at, body));
  });

  it('are refused for a tampered body, a tampered timestamp, another id or another secret', () => {
    const headers = signDelivery('msg_abc123', nowSeconds(), body, secret);
    const webhook = new Webhook(secret);
    expect(() => webhook.verify(body.replace('shop', 'shoq'), { ...headers })).toThrow();
    const later = String(Number(headers['webhook-timestamp']) + 1);
    expect(() => webhook.verify(body, { ...headers, 'webhook-timestamp': later })).toThrow();
    expect(() => webhook.verify(body, { ...headers, 'webhook-id': 'msg_other' })).toThrow();
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    expect(() => new Webhook(other).verify(body, { ...headers })).toThrow();
  });

  it('are refused when stale (the receiver’s replay window)', () => {
    const headers = signDelivery('msg_abc123', nowSeconds() - 3600, body, secret);
    expect(() => new Webhook(secret).verify(body, { ...headers })).toThrow(/timestamp/i);
  });

  it('keep the webhook-id and sign each attempt at its own time', () => {
    const first = signDelivery('msg_same', 1_800_000_000, body, secret);
    const second = signDelivery('msg_same', 1_800_000_005, body, secret);
    expect(second['webhook-id']).toBe(first['webhook-id']);
    expect(second['webhook-signature']).not.toBe(first['webhook-signature']);
  });

  it('need a whsec_ secret that carries a key', () => {
    expect(() => signingKey('sk_abc')).toThrow(/whsec_/);
    expect(() => signingKey('whsec_')).toThrow(/key/);
    expect(signingKey('whsec_AAEC').equals(Buffer.from([0, 1, 2]))).toBe(true);
  });
});
