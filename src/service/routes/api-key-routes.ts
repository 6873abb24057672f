/** `GET/POST /api-keys`, `DELETE /api-keys/{id}` (docs/api.md). */
import type { FastifyInstance } from 'fastify';
import type { ApiKeys } from '../domain/api-keys';
import { registerEndpoint } from './register-endpoint';

export function registerApiKeyRoutes(app: FastifyInstance, apiKeys: ApiKeys): void {
  registerEndpoint(app, 'listApiKeys', async ({ principal }) => ({
    body: await apiKeys.list(principal),
  }));

  registerEndpoint(app, 'createApiKey', async ({ principal, body }) => ({
    status: 201,
    body: await apiKeys.create(principal, body),
  }));

  registerEndpoint(app, 'revokeApiKey', async ({ principal, params }) => ({
    body: await apiKeys.revoke(principal, params.id),
  }));
}
