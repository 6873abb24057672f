/** `GET /health` and `GET /openapi.json`: public. */
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../../contract/openapi';
import { registerEndpoint, type EndpointDependencies } from './register-endpoint';

export function registerMetaRoutes(app: FastifyInstance, deps: EndpointDependencies): void {
  // Generated once: it depends only on the contract.
  const openApi = buildOpenApiDocument() as unknown as Record<string, unknown>;
  registerEndpoint(app, deps, 'getHealth', async () => ({ body: { status: 'ok' as const } }));
  registerEndpoint(app, deps, 'getOpenApiDocument', async () => ({ body: openApi }));
}
