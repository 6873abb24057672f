/** `GET/POST /api-keys`, `DELETE /api-keys/{id}` (docs/api.md). */
import type { FastifyInstance } from 'fastify';
import { audit, createApiKey, publicApiKey } from '../domain/accounts';
import { notFound } from '../domain/refusals';
import { registerEndpoint, type EndpointDependencies } from './register-endpoint';

export function registerApiKeyRoutes(app: FastifyInstance, deps: EndpointDependencies): void {
  const { store, clock } = deps;

  registerEndpoint(app, 'listApiKeys', async ({ principal }) => ({
    body: (await store.listApiKeys(principal.account.id)).map(publicApiKey),
  }));

  registerEndpoint(app, 'createApiKey', async ({ principal, body }) => ({
    status: 201,
    body: await createApiKey(store, {
      user: principal.user,
      name: body.name,
      ...(body.permissions ? { permissions: body.permissions } : {}),
      ...(body.expires_in_days !== undefined ? { expiresInDays: body.expires_in_days } : {}),
      creatorPermissions: principal.key.permissions,
      actor: principal.key.id,
      now: clock(),
    }),
  }));

  registerEndpoint(app, 'revokeApiKey', async ({ principal, params }) => {
    const at = clock().toISOString();
    const key = await store.revokeApiKey(
      principal.account.id,
      params.id,
      at,
      audit(principal.account.id, at, 'api_key.revoke', principal.key.id, params.id, {}),
    );
    if (!key) throw notFound(`The API key ${params.id}`);
    return { body: publicApiKey(key) };
  });
}
