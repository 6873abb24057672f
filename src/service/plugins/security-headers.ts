/**
 * Security headers on every response (quality.md): a Content-Security-Policy under which
 * the console and Monaco run (scripts and workers from 'self', workers also from blob:, no
 * unsafe-eval, no inline scripts; Monaco injects its styles, hence style-src
 * 'unsafe-inline'), nosniff, no referrer, no framing, and helmet's other defaults.
 *
 * The headers never vary, so they are written once at start-up and set by one hook:
 * @fastify/helmet rebuilt them (parsing the CSP directives) on every request, a tenth of
 * the time of a cheap request (docs/benchmarks.md). A test holds them equal to helmet's.
 */
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

/** What helmet 8 sends with these options (HSTS off: a proxy in front sets it over TLS). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': Object.entries(CONTENT_SECURITY_POLICY)
    .map(([directive, values]) => `${directive} ${values.join(' ')}`)
    .join(';'),
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}
