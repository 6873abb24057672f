/**
 * An in-memory provisioning server for component tests of pages that read and edit configs,
 * served through the contract's handlers. It applies operations and validates with the real
 * config domain (src/configs), so reports, positions and revisions behave as the service's.
 */
import type { HttpHandler } from 'msw';
import {
  applyOperations,
  configJsonSchema,
  parseConfig,
  stringifyConfig,
  validateConfigText,
} from '../../configs';
import type { AuthStatus } from '../../contract/auth-status';
import type { ConfigEditRequest, ConfigEditResult } from '../../contract/config-edit';
import { etagOf, type ConfigRecord, type ConfigSummary } from '../../contract/configs';
import { contract, type EndpointName } from '../../contract/endpoints';
import { actionKeyOf, isLifecycleAction } from '../../contract/operations';
import { handle, notOffered, type ContractResolver } from './msw-contract';
import { ADMIN_STATUS, jsonResponse, problemResponse } from './test-utils';

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
  /** Adds a config: by default a draft of the live config with the live config's text. */
  add(fields: Partial<ConfigRecord> & Pick<ConfigRecord, 'id' | 'label'>): void;
  /** Someone else saves `yaml` to a config (its revision goes up). */
  saveElsewhere(id: string, yaml: string): void;
  /** The edit requests it received. */
  readonly edits: { body: ConfigEditRequest; ifMatch: string | null }[];
}

export function createConfigServer({
  liveYaml,
  status = ADMIN_STATUS,
  offersConfigs = true,
}: {
  liveYaml: string;
  /** False: a server of the seed, which has only the edit of the configs' endpoints. */
  offersConfigs?: boolean;
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
    const { yaml: _yaml, validation, ...fields } = record;
    const result: ConfigEditResult = {
      config: {
        ...fields,
        valid: validation.valid,
        error_count: validation.error_count,
        warning_count: validation.warning_count,
      },
      applied_ranges: [],
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

  /** `record` becomes the live config; a draft it was published from is gone. */
  const goLive = (record: ConfigRecord, from: ConfigRecord | null = null) => {
    if (from?.kind === 'draft') configs.delete(from.id);
    configs.set(record.id, record);
    for (const [key, value] of configs) configs.set(key, { ...value, live: key === record.id });
    server.liveId = record.id;
  };
  const notFound = (id: string | undefined) =>
    problemResponse('not_found', `The config ${id} was not found`);

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
    goLive(published, target);
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

  /** What a server of the seed does not offer answers 404, as an unknown route does. */
  const serve = <N extends EndpointName>(name: N, resolver: ContractResolver<N>) =>
    offersConfigs || contract[name].seed ? handle(name, resolver) : notOffered(name);

  const server: ConfigServer = {
    liveId: live.id,
    edits: [],
    get,
    add({ id, label, kind = 'draft', yaml = live.yaml, ...fields }) {
      const base_config_id = kind === 'draft' ? live.id : null;
      configs.set(id, {
        ...recordOf({ id, kind, label, live: false, base_config_id, yaml }),
        ...fields,
      });
    },
    saveElsewhere(id, yaml) {
      const record = get(id);
      configs.set(id, recordOf({ ...record, yaml }, record.revision + 1));
    },
    handlers: [
      serve('getAuthStatus', () => jsonResponse(status)),
      serve('listConfigs', () => {
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
      serve('getLiveConfig', () => withEtag(get(server.liveId))),
      serve('getConfig', ({ params }) => {
        const record = configs.get(params.id ?? '');
        return record ? withEtag(record) : notFound(params.id);
      }),
      serve('getConfigSchema', () => jsonResponse(configJsonSchema)),
      serve('getConfigHistory', ({ params }) =>
        configs.has(params.id ?? '') ? jsonResponse([]) : notFound(params.id),
      ),
      serve('deleteConfig', ({ params }) => {
        if (!configs.delete(params.id ?? '')) return notFound(params.id);
        return new Response(null, { status: 204 });
      }),
      serve('activateConfig', ({ params }) => {
        const record = configs.get(params.id ?? '');
        if (!record) return notFound(params.id);
        goLive(record);
        return withEtag(get(record.id));
      }),
      serve('publishConfig', ({ params, body }) => {
        const draft = configs.get(params.id ?? '');
        if (!draft) return notFound(params.id);
        const published = recordOf({
          id: `cfg_pub_${nextId++}`,
          kind: 'published',
          label: body?.summary?.trim() || draft.label,
          live: true,
          base_config_id: draft.id,
          yaml: draft.yaml,
        });
        goLive(published, draft);
        return withEtag(published);
      }),
      serve('editConfig', ({ request, body }) =>
        body
          ? // The schema's refinement holds each operation to one action, as the type says.
            edit(body as ConfigEditRequest, request.headers.get('If-Match'))
          : problemResponse('invalid_request', 'No body'),
      ),
    ],
  };
  return server;
}
