/**
 * Cross-origin access to the API (docs/deployment.md, `CORS_ORIGINS`): one hook answers
 * preflights and marks answers readable by the origins a rule allows. Rules go by URL
 * prefix, the first that matches wins, so a wider policy for some URLs can come before the
 * console's. Without any rule allowing an origin, no hook is added and nothing changes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE_PATH, type HttpMethod } from '../../contract/endpoints';

export interface CorsPolicy {
  /** Exact origins, or `any` (`Access-Control-Allow-Origin: *`, which never allows credentials). */
  readonly origins: readonly string[] | 'any';
  readonly methods: readonly HttpMethod[];
  /** Request headers a caller may send beyond the safelisted ones. */
  readonly allowedHeaders: readonly string[];
  /** Response headers a caller may read beyond the safelisted ones. */
  readonly exposedHeaders: readonly string[];
  /** How long a browser may keep a preflight's answer. */
  readonly maxAgeSeconds: number;
}

export interface CorsRule {
  /** The URLs it covers: those that start with this path. */
  readonly pathPrefix: string;
  readonly policy: CorsPolicy;
}

export interface CorsOptions {
  readonly rules: readonly CorsRule[];
}

/** What the console sends and reads: its key, JSON bodies, revisions, waits and challenges. */
export function consoleCorsRule(origins: readonly string[]): CorsRule {
  return {
    pathPrefix: `${API_BASE_PATH}/`,
    policy: {
      origins,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'If-Match'],
      exposedHeaders: ['ETag', 'Retry-After', 'WWW-Authenticate'],
      maxAgeSeconds: 600,
    },
  };
}

/** URLs apps call with a client key: the delivery endpoints. */
export const DELIVERY_PATH_PREFIX = `${API_BASE_PATH}/delivery/`;

/**
 * The delivery URLs: any origin reads them (a browser's app carries its client key in its
 * code; no credentials are sent or allowed), with revalidation and resumed streams, and
 * sends its experiment events (as JSON: a preflight; as text/plain: none).
 */
export function deliveryCorsRule(): CorsRule {
  return {
    pathPrefix: DELIVERY_PATH_PREFIX,
    policy: {
      origins: 'any',
      methods: ['GET', 'POST'],
      allowedHeaders: ['If-None-Match', 'Last-Event-ID', 'Content-Type'],
      exposedHeaders: ['ETag', 'Retry-After'],
      maxAgeSeconds: 600,
    },
  };
}

function allowsAnyOrigin(policy: CorsPolicy): boolean {
  return policy.origins === 'any' || policy.origins.length > 0;
}

/** A rule's headers, joined once at start-up. */
interface PreparedRule {
  readonly pathPrefix: string;
  readonly any: boolean;
  readonly origins: ReadonlySet<string>;
  readonly methods: string;
  readonly allowedHeaders: string;
  readonly exposedHeaders: string;
  readonly maxAge: string;
}

function prepare({ pathPrefix, policy }: CorsRule): PreparedRule {
  return {
    pathPrefix,
    any: policy.origins === 'any',
    origins: new Set(policy.origins === 'any' ? [] : policy.origins),
    methods: policy.methods.join(', '),
    allowedHeaders: policy.allowedHeaders.join(', '),
    exposedHeaders: policy.exposedHeaders.join(', '),
    maxAge: String(policy.maxAgeSeconds),
  };
}

function isPreflight(request: FastifyRequest): boolean {
  return (
    request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined
  );
}

/** Adds `Origin` to the Vary header others set (compression adds Accept-Encoding later). */
function varyOnOrigin(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary === undefined ? 'Origin' : `${String(vary)}, Origin`);
}

export function registerCors(app: FastifyInstance, options: CorsOptions): void {
  const rules = options.rules.filter((rule) => allowsAnyOrigin(rule.policy)).map(prepare);
  if (rules.length === 0) return;

  app.addHook('onRequest', (request, reply, done) => {
    const rule = rules.find((candidate) => request.url.startsWith(candidate.pathPrefix));
    if (rule === undefined) return done();
    // A listed origin's answer differs from another's: caches must keep them apart.
    if (!rule.any) varyOnOrigin(reply);
    const origin = request.headers.origin;
    // `*` goes on every answer, asked for or not: a shared cache may hand an answer fetched
    // without Origin to a browser's cross-origin request.
    const allowedOrigin = rule.any
      ? '*'
      : origin !== undefined && rule.origins.has(origin)
        ? origin
        : undefined;
    if (allowedOrigin !== undefined) {
      reply.header('access-control-allow-origin', allowedOrigin);
      if (!isPreflight(request)) reply.header('access-control-expose-headers', rule.exposedHeaders);
    }
    if (!isPreflight(request)) return done();
    // A refused origin gets the same 204 without the allowing headers: the browser refuses.
    if (allowedOrigin !== undefined) {
      reply.header('access-control-allow-methods', rule.methods);
      reply.header('access-control-allow-headers', rule.allowedHeaders);
      reply.header('access-control-max-age', rule.maxAge);
    }
    void reply.code(204).send();
  });
}
