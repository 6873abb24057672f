/**
 * Security headers on every response (quality.md): a Content-Security-Policy under which
 * the console and Monaco run (scripts and workers from 'self', workers also from blob:, no
 * unsafe-eval, no inline scripts; Monaco injects its styles, hence style-src
 * 'unsafe-inline'), nosniff, no referrer, no framing.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * The headers that matter, for the few answers Fastify gives before any hook runs (a URL it
 * cannot decode): helmet never sees those requests.
 */
export const EDGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': Object.entries(CONTENT_SECURITY_POLICY)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join(';'),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    // Not served over TLS here; a proxy in front sets HSTS.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
}
