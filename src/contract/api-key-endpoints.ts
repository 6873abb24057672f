/** The contract table's API key endpoints (docs/api.md). */
import {
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  apiKeySchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
} from './api-keys';
import { endpoint, namedEndpoints, problems } from './endpoint-kit';
import { pagedQuerySchema } from './pages';

export const apiKeyEndpoints = namedEndpoints({
  listApiKeys: endpoint({
    method: 'GET',
    path: '/api-keys',
    summary: "The account's API keys, without secrets, newest first",
    tag: 'api-keys',
    seed: false,
    auth: 'signed_in',
    permission: 'api_keys:manage',
    paged: true,
    query: pagedQuerySchema({}),
    responses: { 200: apiKeyListSchema, ...problems(400, 401, 403, 429, 503) },
  }),
  createApiKey: endpoint({
    method: 'POST',
    path: '/api-keys',
    summary: "Create an API key for the caller's user; its secret is in this response only",
    description:
      "403 when the permissions asked for exceed the caller's role; 409 limit_reached when the caller's user already has 50 active keys.",
    tag: 'api-keys',
    seed: false,
    auth: 'signed_in',
    permission: 'api_keys:manage',
    body: createApiKeyRequestSchema,
    bodyRequired: true,
    responses: {
      201: createdApiKeySchema,
      ...problems(400, 401, 403, 409, 413, 415, 429, 503),
    },
  }),
  revokeApiKey: endpoint({
    method: 'DELETE',
    path: '/api-keys/{id}',
    summary: 'Revoke an API key; it fails from the next request on',
    description: 'A key may revoke itself. Revoking a revoked key returns it unchanged.',
    tag: 'api-keys',
    seed: false,
    auth: 'signed_in',
    permission: 'api_keys:manage',
    params: apiKeyIdParamsSchema,
    responses: { 200: apiKeySchema, ...problems(401, 403, 404, 429, 503) },
  }),
});
