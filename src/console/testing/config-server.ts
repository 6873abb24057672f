/**
 * An in-memory provisioning server for component tests of pages that read and edit configs,
 * served through the contract's handlers. It applies operations and validates with the real
 * config domain (src/configs), so reports, positions and revisions behave as the service's.
 */
import type { HttpHandler } from 'msw';
import { applyOperations, parseConfig, stringifyConfig, validateConfigText } from '../../configs';
import type { AuthStatus } from '../../contract/auth-status';
import type { ConfigEditRequest, ConfigEditResult } from '../../contract/config-edit';
import { etagOf, type ConfigRecord, type ConfigSummary } from '../../contract/configs';
import { actionKeyOf, isLifecycleAction } from '../../contract/operations';
import { handle } from './msw-contract';
import { jsonResponse, problemResponse } from './test-utils';

export const ADMIN_STATUS: AuthStatus = {
  idp_organization_id: 'org_1',
  email: 'ada@example.com',
  role: 'admin',
  api_key_id: 'key_admin',
  api_key_name: 'Admin key',
  api_key_obfuscated_value: 'sk_…aaaa',
  permissions: ['config:read', 'config:write', 'config:publish'],
};

const AT = '2026-11-22T10:00:00.000Z';

type RecordFields = Pick<ConfigRecord, 'id' | 'kind' | 'label' | 'live' | 'base_config_id'> & {
  yaml: string;
};

function recordOf(fields: RecordFields, revision = 1): ConfigRecord {
  return {
    created_at: AT,
    updated_at: AT,
    ...fields,
    revision,
    validation: validateConfigText(fields.yaml, { type: fields.kind, name: fields.label }),
  };
}

export interface ConfigServer {
  readonly handlers: readonly HttpHandler[];
  liveId: string;
  /** The config `id` (throws when there is none). */
  get(id: string): ConfigRecord;
  /** Adds a draft of the live config with this text. */
  addDraft(id: string, label: string, yaml: string): void;
  /** Someone else saves `yaml` to a config (its revision goes up). */
  saveElsewhere(id: string, yaml: string): void;
  /** The edit requests it received. */
  readonly edits: { body: ConfigEditRequest; ifMatch: string | null }[];
}

export function createConfigServer({
  liveYaml,
  status = ADMIN_STATUS,
}: {
  liveYaml: string;
  /** What GET /auth/status answers: its permissions decide what the pages offer. */
  status?: AuthStatus;
}): ConfigServer {
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

  const get = (id: string): ConfigRecord => {
    const record = configs.get(id);
    if (!record) throw new Error(`no config ${id}`);
    return record;
  };
  const withEtag = (record: ConfigRecord) =>
    jsonResponse(record, 200, { ETag: etagOf(record.id, record.revision) });
  const resultOf = (record: ConfigRecord, target: ConfigRecord, appliedPaths: string[]) => {
    const result: ConfigEditResult = {
      id: record.id,
      account_id: 'acc_1',
      kind: record.kind,
      created: record.id !== target.id,
      base_config_id: target.id,
      applied_paths: appliedPaths,
      validation: record.validation,
      revision: record.revision,
    };
    return jsonResponse(result, 200, { ETag: etagOf(record.id, record.revision) });
  };

  /** A lifecycle step: the result is published and live, or refused when invalid. */
  const publish = (target: ConfigRecord, yaml: string, label: string, appliedPaths: string[]) => {
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
    return resultOf(published, target, appliedPaths);
  };

  const edit = (body: ConfigEditRequest, ifMatch: string | null) => {
    server.edits.push({ body, ifMatch });
    const target = configs.get(body.config_id ?? server.liveId);
    if (!target) return problemResponse('not_found', 'The config was not found');
    if (
      ifMatch !== null &&
      ![etagOf(target.id, target.revision), `"${target.revision}"`].includes(ifMatch)
    ) {
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
      return publish(target, yaml, body.summary?.trim() || 'Lifecycle step', applied.appliedPaths);
    }
    const draft =
      target.kind === 'draft'
        ? recordOf({ ...target, yaml }, target.revision + 1)
        : recordOf({
            id: `cfg_draft_${nextId++}`,
            kind: 'draft',
            label: body.summary?.trim() ?? 'Draft',
            live: false,
            base_config_id: target.id,
            yaml,
          });
    configs.set(draft.id, draft);
    return resultOf(draft, target, applied.appliedPaths);
  };

  const server: ConfigServer = {
    liveId: live.id,
    edits: [],
    get,
    addDraft(id, label, yaml) {
      configs.set(
        id,
        recordOf({ id, kind: 'draft', label, live: false, base_config_id: live.id, yaml }),
      );
    },
    saveElsewhere(id, yaml) {
      const record = get(id);
      configs.set(id, recordOf({ ...record, yaml }, record.revision + 1));
    },
    handlers: [
      handle('getAuthStatus', () => jsonResponse(status)),
      handle('listConfigs', () => {
        const list: ConfigSummary[] = [...configs.values()].map(
          ({ yaml: _yaml, validation, ...summary }) => ({
            ...summary,
            valid: validation.valid,
            error_count: validation.error_count,
            warning_count: validation.warning_count,
          }),
        );
        return jsonResponse(list.reverse());
      }),
      handle('getLiveConfig', () => withEtag(get(server.liveId))),
      handle('getConfig', ({ params }) => {
        const record = configs.get(params.id ?? '');
        return record
          ? withEtag(record)
          : problemResponse('not_found', `The config ${params.id} was not found`);
      }),
      handle('editConfig', ({ request, body }) =>
        body
          ? // The schema's refinement holds each operation to one action, as the type says.
            edit(body as ConfigEditRequest, request.headers.get('If-Match'))
          : problemResponse('invalid_request', 'No body'),
      ),
    ],
  };
  return server;
}
