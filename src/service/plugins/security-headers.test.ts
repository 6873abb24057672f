/**
 * The precomputed headers are exactly what @fastify/helmet sent with the same options
 * (it was the service's plugin before; it stays a dev dependency as the reference).
 */
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, registerSecurityHeaders } from './security-headers';

async function headersOf(register: (app: ReturnType<typeof Fastify>) => Promise<void>) {
  const app = Fastify();
  await register(app);
  app.get('/', async () => ({ ok: true }));
  const response = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  const { date: _date, ...headers } = response.headers;
  return headers;
}

describe('security headers', () => {
  it('are the ones helmet sends with the same options', async () => {
    const ours = await headersOf(async (app) => registerSecurityHeaders(app));
    const helmets = await headersOf(async (app) => {
      await app.register(helmet, {
        global: true,
        contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
        referrerPolicy: { policy: 'no-referrer' },
        frameguard: { action: 'deny' },
        strictTransportSecurity: false,
        crossOriginEmbedderPolicy: false,
      });
    });
    expect(ours).toEqual(helmets);
  });
});
