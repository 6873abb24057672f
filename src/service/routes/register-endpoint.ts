/**
 * Registers a route from the contract's table (src/contract/endpoints.ts): its method and
 * path, authentication before anything else is read (401 before 400), its permission, and
 * its params, query, headers and body parsed with the contract's zod schemas (400 naming
 * each wrong field). Handlers receive typed, checked input.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { createHash } from 'node:crypto';
import { z } from '../../contract/zod';
import type { Permission } from '../../contract/auth-status';
import { ifNoneMatchHits } from '../../contract/configs';
import {
  API_BASE_PATH,
  contract,
  permissionOf,
  toFastifyPath,
  type Contract,
  type Endpoint,
  type EndpointName,
  type ResponseBodyOf,
  type SuccessStatusOf,
} from '../../contract/endpoints';
import { zodIssuesToProblemErrors } from '../../contract/problem';
import { HttpProblem } from '../http-problem';
import { authenticationOf, requirePermission } from '../plugins/authentication';
import { API_COMPRESSION } from '../plugins/compression';
import { findIllFormedString } from './well-formed-unicode';
import type { Principal } from '../store/records';

/** What Fastify sends with a body it serialized. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * What the GETs that answer 304 send instead of the API's `no-store`: the browser may keep
 * the answer (this caller's only, never a shared cache) and asks again, with
 * If-None-Match, every time it wants it.
 */
export const REVALIDATED_CACHE_CONTROL = 'private, no-cache';
/**
 * The delivery URLs' (a client key in the path, the same answer for every caller): any
 * cache may keep it, and asks again with If-None-Match before each use.
 */
export const SHARED_REVALIDATED_CACHE_CONTROL = 'no-cache';

/** Endpoints whose answers are always small (under 1 KiB): no compression hook at all. */
const SMALL_ANSWERS: ReadonlySet<EndpointName> = new Set(['getAuthStatus', 'getHealth']);

type Parsed<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

export interface EndpointInput<N extends EndpointName> {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly principal: Contract[N]['auth'] extends 'signed_in' ? Principal : undefined;
  readonly params: Parsed<Contract[N] extends { params: infer S } ? S : undefined>;
  readonly query: Parsed<Contract[N] extends { query: infer S } ? S : undefined>;
  readonly headers: Parsed<Contract[N] extends { headers: infer S } ? S : undefined>;
  readonly body: Parsed<Contract[N] extends { body: infer S } ? S : undefined>;
}

export type EndpointOutput<N extends EndpointName> = {
  readonly status?: SuccessStatusOf<Contract[N]>;
  /** The ETag naming this response's content (a config: `etagOf`). */
  readonly etag?: string;
  /** A conditional GET's own Cache-Control, instead of the one its kind of key gets. */
  readonly cacheControl?: string;
  /** A list's next page: its cursor, sent as the `Link` header's `rel="next"` URL. */
  readonly nextCursor?: string | undefined;
} & (
  | { readonly body: ResponseBodyOf<Contract[N]> }
  /** A body the handler serialized itself with `reply.serialize` (the route's serializer). */
  | { readonly serializedBody: string }
  /** The handler took the response over (`reply.hijack()`) and writes it itself: a stream. */
  | { readonly streamed: true }
);

export function registerEndpoint<N extends EndpointName>(
  app: FastifyInstance,
  name: N,
  /** May answer at once (no promise) when it has all it needs in memory. */
  handler: (input: EndpointInput<N>) => EndpointOutput<N> | Promise<EndpointOutput<N>>,
): void {
  const endpoint = contract[name] as Contract[EndpointName];
  const successStatus = Number(
    Object.keys(endpoint.responses).find((status) => Number(status) < 300) ?? 200,
  );

  const successSchema = (endpoint.responses as Endpoint['responses'])[successStatus];
  const serialized = successSchema ? compiledResponseSchema(successSchema) : undefined;
  const conditional = endpoint.method === 'GET' && 304 in endpoint.responses;
  const cacheControl =
    endpoint.auth === 'client_key' ? SHARED_REVALIDATED_CACHE_CONTROL : REVALIDATED_CACHE_CONTROL;
  const authentication = authenticationOf(app);
  const { permission } = endpoint;
  const bodyPermission = permission !== null && typeof permission !== 'string';

  const respond = (request: FastifyRequest, reply: FastifyReply, output: EndpointOutput<N>) => {
    if ('streamed' in output) return reply;
    if (output.etag !== undefined) {
      reply.header('etag', output.etag);
      if (conditional) {
        reply.header('cache-control', output.cacheControl ?? cacheControl);
        if (ifNoneMatchHits(request.headers['if-none-match'], output.etag)) {
          return reply.code(304).send();
        }
      }
    }
    if (output.nextCursor !== undefined) {
      reply.header('link', `<${nextPageUrl(request.url, output.nextCursor)}>; rel="next"`);
    }
    const status = Number(output.status ?? successStatus);
    if ('serializedBody' in output) {
      // A JSON string is sent as it is: Fastify serializes only what is not a string.
      return reply.code(status).type(JSON_CONTENT_TYPE).send(output.serializedBody);
    }
    if (output.body === undefined) return reply.code(status).send();
    return reply.code(status).send(output.body);
  };

  app.route({
    method: endpoint.method,
    url: `${API_BASE_PATH}${toFastifyPath(endpoint.path)}`,
    ...(serialized ? { schema: { response: { [successStatus]: serialized } } } : {}),
    compress: SMALL_ANSWERS.has(name) ? false : API_COMPRESSION,
    ...('maxBodyBytes' in endpoint ? { bodyLimit: endpoint.maxBodyBytes } : {}),
    config: {
      plainTextJson: 'plainTextJson' in endpoint && endpoint.plainTextJson === true,
      personLevel: 'personLevel' in endpoint && endpoint.personLevel === true,
    },
    // After the rate limit, before the body is read: a request without a valid key learns
    // nothing about its body (401 before 400). Callback form, so that a key found at once
    // goes on at once. Client keys are found by the handler, in the path.
    ...(endpoint.auth === 'signed_in'
      ? {
          preParsing: (
            request: FastifyRequest,
            _reply: FastifyReply,
            payload: RequestPayload,
            done: (error: Error | null, payload?: RequestPayload) => void,
          ) => {
            const permit = (principal: Principal) => {
              try {
                if (typeof permission === 'string') requirePermission(principal, permission);
              } catch (error) {
                return done(error as Error);
              }
              done(null, payload);
            };
            const principal = authentication.admit(request);
            if (principal instanceof Promise) principal.then(permit, (error: Error) => done(error));
            else permit(principal);
          },
        }
      : {}),
    // Not async: a handler that answers at once (a delivery 304 from memory) is sent at
    // once, without the promises and microtasks an async handler costs on every request.
    handler: (request, reply) => {
      const parsed = {
        params: parse(
          'params' in endpoint ? endpoint.params : undefined,
          request.params,
          'path parameters',
        ),
        query: parse('query' in endpoint ? endpoint.query : undefined, request.query, 'query'),
        headers: parse(
          'headers' in endpoint ? endpoint.headers : undefined,
          request.headers,
          'headers',
        ),
        body: parseBody(endpoint, request.body),
      };
      const identified = endpoint.auth === 'signed_in' ? request.principal : undefined;
      // A change is audited with the address it came from; reads keep the shared principal.
      const principal =
        identified && endpoint.method !== 'GET' ? { ...identified, ip: request.ip } : identified;
      // A permission that depends on the body is known only now (a 400 comes before it).
      if (bodyPermission && principal) {
        requirePermission(principal, permissionOf(endpoint, parsed.body) as Permission);
      }
      const output = handler({ request, reply, principal, ...parsed } as EndpointInput<N>);
      if (output instanceof Promise) return output.then((done) => respond(request, reply, done));
      respond(request, reply, output);
      return undefined;
    },
  });
}

/**
 * The request's own URL with `cursor` set: a relative reference (RFC 8288 resolves it
 * against the request), so it holds behind a proxy that rewrites the host.
 */
function nextPageUrl(requestUrl: string, cursor: string): string {
  const url = new URL(requestUrl, 'http://request.invalid');
  url.searchParams.set('cursor', cursor);
  return `${url.pathname}${url.search}`;
}

/** An ETag for a document that does not change while the service runs: a hash of it. */
export function contentEtagOf(document: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify(document)).digest('base64url');
  return `"${hash.slice(0, 27)}"`;
}

/**
 * The success response's JSON Schema, which Fastify compiles into a serializer that writes
 * exactly the contract's fields, faster than JSON.stringify (docs/benchmarks.md). None for a
 * union: picking its branch per value costs more than it saves.
 */
export function compiledResponseSchema(schema: z.ZodMiniType): object | undefined {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
  return /"(anyOf|oneOf|allOf|not|if)":/.test(JSON.stringify(json)) ? undefined : json;
}

function parse(schema: z.ZodMiniType | undefined, value: unknown, what: string): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw HttpProblem.of('invalid_request', `The ${what} are not valid`, {
    errors: zodIssuesToProblemErrors(result.error.issues),
  });
}

function parseBody(endpoint: Contract[EndpointName], body: unknown): unknown {
  if (!('body' in endpoint) || !endpoint.body) return undefined;
  if (body === undefined && 'bodyRequired' in endpoint && endpoint.bodyRequired === false) {
    return endpoint.body.parse({});
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw HttpProblem.of('invalid_request', 'The body must be a JSON object', {
      errors: [{ path: '', message: 'expected an object' }],
    });
  }
  const illFormed = findIllFormedString(body);
  if (illFormed !== undefined) {
    throw HttpProblem.of(
      'invalid_request',
      `The body holds text that is not valid Unicode (a lone UTF-16 surrogate) at ${illFormed || '(body)'}`,
      { errors: [{ path: illFormed, message: 'not valid Unicode: a lone surrogate' }] },
    );
  }
  const result = endpoint.body.safeParse(body);
  if (result.success) return result.data;
  const errors = zodIssuesToProblemErrors(result.error.issues);
  throw HttpProblem.of(
    'invalid_request',
    `The request is not valid: ${errors.map((e) => `${e.path || '(body)'} ${e.message}`).join('; ')}`,
    {
      errors,
    },
  );
}
