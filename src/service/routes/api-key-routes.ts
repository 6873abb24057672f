/** `GET/POST /api-keys`, `DELETE /api-keys/{id}` (docs/api.md). */
import type { FastifyInstance } from 'fastify';
import type { ApiKeys } from '../domain/api-keys';
import { pagedList } from '../domain/pages';
import { CREATED_KEY } from '../store/sql/keyset';
import { registerEndpoint } from './register-endpoint';

export function registerApiKeyRoutes(app: FastifyInstance, apiKeys: ApiKeys): void {
  const pages = pagedList('api_keys', CREATED_KEY.length);
  registerEndpoint(app, 'listApiKeys', async ({ principal, query }) => {
    const page = await apiKeys.list(principal, pages.request(query));
    return { body: page.items, nextCursor: pages.cursorAfter(page) };
  });

  registerEndpoint(app, 'createApiKey', async ({ principal, body }) => ({
    status: 201,
    body: await apiKeys.create(principal, body),
  }));

  registerEndpoint(app, 'revokeApiKey', async ({ principal, params }) => ({
    body: await apiKeys.revoke(principal, params.id),
  }));
}
