/** `GET /health` and `GET /openapi.json`: public. */
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../../contract/openapi';
import type { Store } from '../store/store';
import { contentEtagOf, registerEndpoint } from './register-endpoint';

export function registerMetaRoutes(app: FastifyInstance, store: Pick<Store, 'checkHealth'>): void {
  // Generated once: it depends only on the contract.
  const openApi = buildOpenApiDocument() as unknown as Record<string, unknown>;
  // 200 either way: the database is shared, and an outage of it must not make every
  // instance fail its probe at once (restarts would not bring it back).
  registerEndpoint(app, 'getHealth', async () => ({
    body:
      (await store.checkHealth()) === 'ok'
        ? { status: 'ok' as const }
        : {
            status: 'degraded' as const,
            detail: 'The database is not answering; requests that need it get 503',
          },
  }));
  const openApiEtag = contentEtagOf(openApi);
  registerEndpoint(app, 'getOpenApiDocument', async () => ({
    body: openApi,
    etag: openApiEtag,
  }));
}
