/** `GET/POST /client-keys`, `DELETE /client-keys/{id}` (docs/delivery.md). */
import type { FastifyInstance } from 'fastify';
import type { ClientKeys } from '../domain/client-keys';
import { pagedList } from '../domain/pages';
import { CREATED_KEY } from '../store/sql/keyset';
import { registerEndpoint } from './register-endpoint';

export function registerClientKeyRoutes(app: FastifyInstance, clientKeys: ClientKeys): void {
  const pages = pagedList('client_keys', CREATED_KEY.length);
  registerEndpoint(app, 'listClientKeys', async ({ principal, query }) => {
    const page = await clientKeys.list(principal, pages.request(query));
    return { body: page.items, nextCursor: pages.cursorAfter(page) };
  });

  registerEndpoint(app, 'createClientKey', async ({ principal, body }) => ({
    status: 201,
    body: await clientKeys.create(principal, body),
  }));

  registerEndpoint(app, 'revokeClientKey', async ({ principal, params }) => ({
    body: await clientKeys.revoke(principal, params.id),
  }));
}
