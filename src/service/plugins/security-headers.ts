/**
 * Security headers on every response, in three sets chosen by the URL: documents get the
 * policy the console and Monaco run under, API answers a smaller set, the delivery URLs
 * the least (docs/operations.md).
 * They never vary, so they are built once at start-up instead of per request as helmet does.
 */
import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '../../contract/endpoints';
import { DELIVERY_PATH_PREFIX } from './cors';

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
 * What helmet 8 sends with these options (HSTS apart: only behind TLS), with
 * `connect-src` widened to the other origins the console may call (`CORS_ORIGINS`).
 */
export function documentSecurityHeaders(
  connectOrigins: readonly string[] = [],
): Readonly<Record<string, string>> {
  const policy = {
    ...CONTENT_SECURITY_POLICY,
    'connect-src': [...CONTENT_SECURITY_POLICY['connect-src'], ...connectOrigins],
  };
  return {
    'content-security-policy': Object.entries(policy)
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
}

export const DOCUMENT_SECURITY_HEADERS = documentSecurityHeaders();

/** OWASP REST Security Cheat Sheet, "Security headers"; HSTS is added behind TLS. */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * The delivery URLs' (JSON any origin reads, polled by whole fleets): the content type is
 * never sniffed, and nothing is stored unless the route says so. What the API set adds
 * guards a page or a same-origin answer (framing, referrers, cross-origin reads), none of
 * which a public JSON view has, and every header is paid on every poll.
 */
export const DELIVERY_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

const API_PREFIX = `${API_BASE_PATH}/`;

/** The set for a request's URL (as received, query included). */
export function securityHeadersFor(
  url: string,
  documentHeaders: Readonly<Record<string, string>> = DOCUMENT_SECURITY_HEADERS,
): Readonly<Record<string, string>> {
  if (!url.startsWith(API_PREFIX)) return documentHeaders;
  return url.startsWith(DELIVERY_PATH_PREFIX) ? DELIVERY_SECURITY_HEADERS : API_SECURITY_HEADERS;
}

/**
 * Over TLS only (the service's own, or a trusted proxy's `X-Forwarded-Proto: https`): a
 * browser told over plain HTTP would be told by whoever sits in the middle.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

export function registerSecurityHeaders(
  app: FastifyInstance,
  { connectOrigins = [] }: { connectOrigins?: readonly string[] } = {},
): void {
  const documentHeaders = documentSecurityHeaders(connectOrigins);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeadersFor(request.url, documentHeaders));
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    }
    done();
  });
}
