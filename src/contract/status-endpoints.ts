/**
 * The contract table's endpoints a caller asks before anything else: whether the service
 * lives, its OpenAPI document, and who the caller is.
 */
import { authStatusSchema } from './auth-status';
import { endpoint, namedEndpoints, problems } from './endpoint-kit';
import { ifNoneMatchHeadersSchema } from './request-headers';
import { described, z } from './zod';

/** `GET /health`: whether the service, and its database, answer. */
export const healthSchema = z
  .object({
    status: described(
      z.enum(['ok', 'degraded']),
      'degraded: the service runs but its database does not answer; requests that need it get 503',
    ),
    detail: described(z.optional(z.string()), 'What is degraded, for people'),
  })
  .register(z.globalRegistry, { id: 'Health' });

export const statusEndpoints = namedEndpoints({
  getHealth: endpoint({
    method: 'GET',
    path: '/health',
    summary: 'Liveness probe',
    description:
      'Never rate limited: a flood from one address does not fail its probes. Always 200 while the process runs, so that an outage of the shared database does not take every instance out of a load balancer; the status is degraded while the database does not answer.',
    tag: 'meta',
    seed: false,
    auth: 'public',
    permission: null,
    responses: { 200: healthSchema },
  }),
  getOpenApiDocument: endpoint({
    method: 'GET',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    tag: 'meta',
    seed: false,
    auth: 'public',
    permission: null,
    headers: ifNoneMatchHeadersSchema,
    etag: true,
    responses: { 200: z.record(z.string(), z.unknown()), 304: null, ...problems(429) },
  }),
  getAuthStatus: endpoint({
    method: 'GET',
    path: '/auth/status',
    summary: 'Who the caller is and the state of their API key',
    tag: 'auth',
    seed: true,
    auth: 'signed_in',
    permission: null,
    personLevel: true,
    responses: { 200: authStatusSchema, ...problems(401, 429, 503) },
  }),
});
