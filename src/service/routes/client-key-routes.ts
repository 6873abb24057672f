/** `GET/POST /client-keys`, `DELETE /client-keys/{id}` (docs/delivery.md). */
import type { FastifyInstance } from 'fastify';
import type { ClientKeys } from '../domain/client-keys';
import { registerEndpoint } from './register-endpoint';

export function registerClientKeyRoutes(app: FastifyInstance, clientKeys: ClientKeys): void {
  registerEndpoint(app, 'listClientKeys', async ({ principal }) => ({
    body: await clientKeys.list(principal),
  }));

  registerEndpoint(app, 'createClientKey', async ({ principal, body }) => ({
    status: 201,
    body: await clientKeys.create(principal, body),
  }));

  registerEndpoint(app, 'revokeClientKey', async ({ principal, params }) => ({
    body: await clientKeys.revoke(principal, params.id),
  }));
}
