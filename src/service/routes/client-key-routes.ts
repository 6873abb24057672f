/** `GET/POST /client-keys`, `DELETE /client-keys/{id}` (docs/delivery.md). */
import type { FastifyInstance } from 'fastify';
import { createClientKey, publicClientKey, revokeClientKey } from '../delivery/client-keys';
import { notFound } from '../domain/refusals';
import { registerEndpoint, type EndpointDependencies } from './register-endpoint';

export function registerClientKeyRoutes(app: FastifyInstance, deps: EndpointDependencies): void {
  const { store, clock } = deps;

  registerEndpoint(app, 'listClientKeys', async ({ principal }) => ({
    body: (await store.listClientKeys(principal.account.id)).map(publicClientKey),
  }));

  registerEndpoint(app, 'createClientKey', async ({ principal, body }) => ({
    status: 201,
    body: publicClientKey(
      await createClientKey(store, {
        accountId: principal.account.id,
        name: body.name,
        apps: body.apps,
        actor: principal.key.id,
        now: clock(),
      }),
    ),
  }));

  registerEndpoint(app, 'revokeClientKey', async ({ principal, params }) => {
    const key = await revokeClientKey(store, {
      accountId: principal.account.id,
      id: params.id,
      actor: principal.key.id,
      now: clock(),
    });
    if (!key) throw notFound(`The client key ${params.id}`);
    return { body: publicClientKey(key) };
  });
}
