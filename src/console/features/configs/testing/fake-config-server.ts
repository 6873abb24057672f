/**
 * A small in-memory provisioning server for the configs pages' component tests: it applies
 * edit operations and validates with the real config domain (src/configs), so reports,
 * positions and revisions behave as the service's do.
 */
import {
  applyOperations,
  parseConfig,
  stringifyConfig,
  validateConfigText,
} from '../../../../configs';
import type { AuthStatus } from '../../../../contract/auth-status';
import type { ConfigEditRequest, ConfigEditResult } from '../../../../contract/config-edit';
import { actionKeyOf, isLifecycleAction } from '../../../../contract/operations';
import { etagOf, type ConfigRecord, type ConfigSummary } from '../../../../contract/configs';
import { jsonResponse, problemResponse, type SeenRequest } from '../../../testing/test-utils';

export const ADMIN_STATUS: AuthStatus = {
  idp_organization_id: 'org_1',
  email: 'ada@example.com',
  role: 'admin',
  api_key_id: 'key_admin',
  api_key_name: 'Admin key',
  api_key_obfuscated_value: 'sk_…aaaa',
  permissions: ['config:read', 'config:write', 'config:publish'],
};

export const LIVE_YAML = `# Apps
apps:
  - id: checkout
    name: Checkout
    platform: web
  - id: ios-app
    name: Shop for iOS
    platform: ios
`;

const AT = '2026-11-22T10:00:00.000Z';

function recordOf(
  fields: Pick<ConfigRecord, 'id' | 'kind' | 'label' | 'live' | 'base_config_id'> & {
    yaml: string;
    revision?: number;
  },
): ConfigRecord {
  return {
    revision: 1,
    created_at: AT,
    updated_at: AT,
    ...fields,
    validation: validateConfigText(fields.yaml, { type: fields.kind, name: fields.label }),
  };
}

export interface FakeConfigServer {
  readonly configs: Map<string, ConfigRecord>;
  liveId: string;
  /** The config `id` (throws when there is none). */
  get(id: string): ConfigRecord;
  /** Adds a config made from the live one with these fields. */
  add(fields: Partial<ConfigRecord> & Pick<ConfigRecord, 'id' | 'label'>): void;
  handle(request: SeenRequest): Response;
  /** Someone else saves `yaml` to a config (its revision goes up). */
  saveElsewhere(id: string, yaml: string): void;
  /** The edit requests it received. */
  readonly edits: { body: ConfigEditRequest; ifMatch: string | null }[];
}

export function createFakeConfigServer({
  offersConfigs = true,
  status = ADMIN_STATUS,
  liveYaml = LIVE_YAML,
}: {
  offersConfigs?: boolean;
  /** What GET /auth/status answers: its permissions decide what the pages offer. */
  status?: AuthStatus;
  liveYaml?: string;
} = {}): FakeConfigServer {
  const configs = new Map<string, ConfigRecord>();
  const live = recordOf({
    id: 'cfg_live',
    kind: 'published',
    label: 'Initial config',
    live: true,
    base_config_id: null,
    yaml: liveYaml,
  });
  configs.set(live.id, live);
  let nextId = 1;
  const edits: FakeConfigServer['edits'] = [];

  const withEtag = (record: ConfigRecord) =>
    jsonResponse(record, 200, { ETag: etagOf(record.id, record.revision) });

  const get = (id: string): ConfigRecord => {
    const record = configs.get(id);
    if (!record) throw new Error(`no config ${id}`);
    return record;
  };

  /** A lifecycle step: the result is published and live, or refused when invalid. */
  const publishLifecycleResult = (
    target: ConfigRecord,
    yaml: string,
    body: ConfigEditRequest,
    appliedPaths: string[],
  ): Response => {
    const label = body.summary?.trim() || 'Lifecycle step';
    const published = recordOf({
      id: `cfg_pub_${nextId++}`,
      kind: 'published',
      label,
      live: true,
      base_config_id: target.id,
      yaml,
    });
    if (!published.validation.valid) {
      return problemResponse(
        'invalid_config',
        'The result would not be valid, and the live config must always be valid',
        {},
        { validation: published.validation },
      );
    }
    if (target.kind === 'draft') configs.delete(target.id);
    for (const [key, value] of configs) configs.set(key, { ...value, live: false });
    configs.set(published.id, published);
    server.liveId = published.id;
    const result: ConfigEditResult = {
      id: published.id,
      account_id: 'acc_1',
      kind: 'published',
      created: true,
      base_config_id: target.id,
      applied_paths: appliedPaths,
      validation: published.validation,
      revision: 1,
    };
    return jsonResponse(result, 200, { ETag: etagOf(result.id, 1) });
  };

  const server: FakeConfigServer = {
    configs,
    liveId: live.id,
    edits,
    get,
    add(fields) {
      const yaml = fields.yaml ?? live.yaml;
      const kind = fields.kind ?? 'draft';
      configs.set(fields.id, {
        ...recordOf({
          id: fields.id,
          kind,
          label: fields.label,
          live: false,
          base_config_id: kind === 'draft' ? live.id : null,
          yaml,
        }),
        ...fields,
      });
    },
    saveElsewhere(id, yaml) {
      const record = get(id);
      configs.set(id, { ...recordOf({ ...record, yaml }), revision: record.revision + 1 });
    },
    handle(request) {
      const url = new URL(request.url);
      const path = url.pathname.replace(/^\/api\/v1/, '');
      const method = request.method;
      if (path === '/auth/status') return jsonResponse(status);
      if (path === '/config/schema') return problemResponse('not_found', 'Unknown route');
      if (!offersConfigs && path.startsWith('/configs')) {
        return problemResponse('not_found', 'Unknown route');
      }
      if (path === '/configs' && method === 'GET') {
        const list: ConfigSummary[] = [...configs.values()].map(
          ({ yaml: _yaml, validation, ...summary }) => ({
            ...summary,
            valid: validation.valid,
            error_count: validation.error_count,
            warning_count: validation.warning_count,
          }),
        );
        return jsonResponse(list.reverse());
      }
      if (path === '/configs/live' && method === 'GET') {
        return withEtag(get(server.liveId));
      }
      const one = /^\/configs\/([^/]+)(\/publish|\/activate|\/history)?$/.exec(path);
      if (one) {
        const id = decodeURIComponent(one[1] ?? '');
        const record = configs.get(id);
        if (!record) return problemResponse('not_found', `The config ${id} was not found`);
        if (!one[2] && method === 'GET') return withEtag(record);
        if (!one[2] && method === 'DELETE') {
          configs.delete(id);
          return new Response(null, { status: 204 });
        }
        if (one[2] === '/activate') {
          server.liveId = id;
          for (const [key, value] of configs) configs.set(key, { ...value, live: key === id });
          return withEtag(get(id));
        }
        if (one[2] === '/publish') {
          const body = (request.body ?? {}) as { summary?: string };
          const published = recordOf({
            id: `cfg_pub_${nextId++}`,
            kind: 'published',
            label: body.summary?.trim() || record.label,
            live: true,
            base_config_id: id,
            yaml: record.yaml,
          });
          configs.delete(id);
          for (const [key, value] of configs) configs.set(key, { ...value, live: false });
          configs.set(published.id, published);
          server.liveId = published.id;
          return withEtag(published);
        }
        if (one[2] === '/history') return jsonResponse([]);
      }
      if (path === '/config/edit' && method === 'POST') {
        const body = request.body as ConfigEditRequest;
        const ifMatch = request.headers.get('If-Match');
        edits.push({ body, ifMatch });
        const target = configs.get(body.config_id ?? server.liveId);
        if (!target) return problemResponse('not_found', 'The config was not found');
        const current = [etagOf(target.id, target.revision), `"${target.revision}"`];
        if (ifMatch !== null && !current.includes(ifMatch)) {
          return problemResponse(
            'precondition_failed',
            `The config ${target.id} is at revision ${target.revision}`,
          );
        }
        const parsed = parseConfig(target.yaml);
        const applied = applyOperations(parsed.document, body.operations);
        if (!applied.ok) return problemResponse('conflict', applied.refusal.message);
        const yaml = stringifyConfig(parsed.document);
        if (body.operations.some((operation) => isLifecycleAction(actionKeyOf(operation)))) {
          return publishLifecycleResult(target, yaml, body, applied.appliedPaths);
        }
        const draft =
          target.kind === 'draft'
            ? { ...recordOf({ ...target, yaml }), revision: target.revision + 1 }
            : recordOf({
                id: `cfg_draft_${nextId++}`,
                kind: 'draft',
                label: body.summary?.trim() ?? 'Draft',
                live: false,
                base_config_id: target.id,
                yaml,
              });
        configs.set(draft.id, draft);
        const result: ConfigEditResult = {
          id: draft.id,
          account_id: 'acc_1',
          kind: 'draft',
          created: draft.id !== target.id,
          base_config_id: target.id,
          applied_paths: applied.appliedPaths,
          validation: draft.validation,
          revision: draft.revision,
        };
        return jsonResponse(result, 200, { ETag: etagOf(draft.id, draft.revision) });
      }
      return problemResponse('not_found', `Unknown route ${method} ${path}`);
    },
  };
  return server;
}
