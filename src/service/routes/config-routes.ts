/** `POST /config/edit` and the other config endpoints. */
import type { FastifyInstance } from 'fastify';
import type { ConfigEditRequest } from '../../contract/config-edit';
import { configOfEtag, etagOf, recordEtagOf } from '../../contract/configs';
import { configJsonSchema } from '../../configs/config-schema';
import type { ConfigService } from '../domain/config-service';
import { pagedList } from '../domain/pages';
import { CREATED_KEY } from '../store/sql/keyset';
import { contentEtagOf, registerEndpoint } from './register-endpoint';

export function registerConfigRoutes(app: FastifyInstance, configs: ConfigService): void {
  registerEndpoint(app, 'editConfig', async ({ principal, body, headers }) => {
    const ifMatch = headers['if-match'];
    const expected = ifMatch === undefined ? undefined : (configOfEtag(ifMatch) ?? undefined);
    const { result, revision } = await configs.edit(principal, body as ConfigEditRequest, expected);
    return { body: { ...result, revision }, etag: etagOf(result.id, revision) };
  });

  const configPages = pagedList('configs', CREATED_KEY.length);
  registerEndpoint(app, 'listConfigs', async ({ principal, query }) => {
    const page = await configs.list(principal, query, configPages.request(query));
    return { body: page.items, nextCursor: configPages.cursorAfter(page) };
  });

  registerEndpoint(app, 'getLiveConfig', async ({ principal }) => {
    const config = await configs.getLive(principal);
    return { body: config, etag: recordEtagOf(config) };
  });

  registerEndpoint(app, 'getConfig', async ({ principal, params }) => {
    const config = await configs.get(principal, params.id);
    return { body: config, etag: recordEtagOf(config) };
  });

  registerEndpoint(app, 'getConfigRevision', async ({ principal, params }) => ({
    body: await configs.revision(principal, params.id, Number(params.revision)),
  }));

  registerEndpoint(app, 'publishConfig', async ({ principal, params, body }) => {
    const config = await configs.publish(principal, params.id, body.summary);
    return { body: config, etag: recordEtagOf(config) };
  });

  registerEndpoint(app, 'activateConfig', async ({ principal, params }) => {
    const config = await configs.activate(principal, params.id);
    return { body: config, etag: recordEtagOf(config) };
  });

  registerEndpoint(app, 'deleteConfig', async ({ principal, params }) => {
    await configs.discard(principal, params.id);
    return { status: 204, body: undefined };
  });

  const historyPages = pagedList('history', 2);
  registerEndpoint(app, 'getConfigHistory', async ({ principal, params, query }) => {
    const page = await configs.history(principal, params.id, historyPages.request(query));
    return { body: page.items, nextCursor: historyPages.cursorAfter(page) };
  });

  const schema = configJsonSchema as unknown as Record<string, unknown>;
  const schemaEtag = contentEtagOf(schema);
  registerEndpoint(app, 'getConfigSchema', async () => ({ body: schema, etag: schemaEtag }));
}
