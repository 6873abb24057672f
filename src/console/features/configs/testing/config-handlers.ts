/**
 * The configs endpoints over a ConfigStore, as MSW handlers built from the contract
 * (contract-handler.ts), for the configs pages' component tests.
 */
import type { HttpHandler } from 'msw';
import type { AuthStatus } from '../../../../contract/auth-status';
import type { ConfigEditRequest } from '../../../../contract/config-edit';
import { etagOf, type ConfigRecord } from '../../../../contract/configs';
import { problemOf } from '../../../../contract/problem';
import { contractHandler, NOT_OFFERED } from './contract-handler';
import type { ConfigStore } from './config-store';

export const ADMIN_STATUS: AuthStatus = {
  idp_organization_id: 'org_1',
  email: 'ada@example.com',
  role: 'admin',
  api_key_id: 'key_admin',
  api_key_name: 'Admin key',
  api_key_obfuscated_value: 'sk_…aaaa',
  permissions: ['config:read', 'config:write', 'config:publish'],
};

export interface ConfigHandlerOptions {
  /** False: a seed-only server, which answers 404 to everything under /configs. */
  readonly offersConfigs?: boolean;
  /** What GET /auth/status answers: its permissions decide what the pages offer. */
  readonly status?: AuthStatus;
}

function withEtag(record: ConfigRecord) {
  return {
    status: 200,
    body: record,
    headers: { ETag: etagOf(record.id, record.revision) },
  } as const;
}

function notFound(detail: string) {
  return { problem: problemOf('not_found', detail) };
}

export function configHandlers(
  store: ConfigStore,
  { offersConfigs = true, status = ADMIN_STATUS }: ConfigHandlerOptions = {},
): HttpHandler[] {
  const beyondSeed: HttpHandler[] = [
    contractHandler('listConfigs', () => ({ status: 200, body: store.list() })),
    // Before getConfig: `live` is a route, not an id.
    contractHandler('getLiveConfig', () => withEtag(store.get(store.liveId))),
    contractHandler('getConfig', ({ params }) => {
      const record = store.configs.get(params.id);
      return record ? withEtag(record) : notFound(`The config ${params.id} was not found`);
    }),
    contractHandler('deleteConfig', ({ params }) => {
      if (!store.configs.has(params.id)) return notFound(`The config ${params.id} was not found`);
      store.discard(params.id);
      return { status: 204, body: undefined };
    }),
    contractHandler('activateConfig', ({ params }) => {
      if (!store.configs.has(params.id)) return notFound(`The config ${params.id} was not found`);
      return withEtag(store.activate(params.id));
    }),
    contractHandler('publishConfig', ({ params, body }) => {
      const record = store.configs.get(params.id);
      if (!record) return notFound(`The config ${params.id} was not found`);
      return withEtag(store.publish(record, body?.summary?.trim() || record.label));
    }),
    contractHandler('getConfigHistory', ({ params }) =>
      store.configs.has(params.id)
        ? { status: 200, body: [] }
        : notFound(`The config ${params.id} was not found`),
    ),
  ];
  return [
    contractHandler('getAuthStatus', () => ({ status: 200, body: status })),
    // The console falls back to the schema it bundles.
    contractHandler('getConfigSchema', () => NOT_OFFERED),
    contractHandler('editConfig', ({ body, headers }) => {
      // The schema's operations are the contract's Operation union, typed by hand.
      const outcome = store.edit(body as ConfigEditRequest, headers['if-match'] ?? null);
      if (!('ok' in outcome)) return outcome;
      const result = outcome.value;
      return {
        status: 200,
        body: result,
        headers: { ETag: etagOf(result.id, result.revision ?? 1) },
      };
    }),
    ...(offersConfigs
      ? beyondSeed
      : ['listConfigs', 'getLiveConfig', 'getConfig'].map((name) =>
          contractHandler(name as 'getConfig', () => NOT_OFFERED),
        )),
  ];
}
