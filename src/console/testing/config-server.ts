/**
 * An account's configs in memory, served over the contract's handlers (msw-contract.ts) for
 * the component tests of pages that read and edit configs. Edits are applied, written and
 * validated with the real config domain, so reports, ranges and revisions are the service's.
 */
import type { HttpHandler } from 'msw';
import { applyEdit, configJsonSchema, parseConfig, validateConfigText } from '../../configs';
import type { AuthStatus } from '../../contract/auth-status';
import type { ConfigEditRequest, ConfigEditResult } from '../../contract/config-edit';
import { etagOf, type ConfigRecord, type ConfigSummary } from '../../contract/configs';
import { contract, type EndpointName } from '../../contract/endpoints';
import { actionKeyOf, isLifecycleAction } from '../../contract/operations';
import { problemOf, problemTypeUri } from '../../contract/problem';
import { handle, notOffered, type ContractReply, type ContractResolver } from './msw-contract';
import { ADMIN_STATUS } from './test-utils';

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
/** When the server's edits happen: the console can only know it from the answer. */
export const EDITED_AT = '2026-11-22T11:00:00.000Z';

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

export function summaryOf({ yaml: _yaml, validation, ...fields }: ConfigRecord): ConfigSummary {
  return {
    ...fields,
    valid: validation.valid,
    error_count: validation.error_count,
    warning_count: validation.warning_count,
  };
}

function withEtag(record: ConfigRecord) {
  return {
    status: 200,
    body: record,
    headers: { ETag: etagOf(record.id, record.revision) },
  } as const;
}

function notFound(id: string) {
  return { problem: problemOf('not_found', `The config ${id} was not found`) };
}

export interface ConfigServerOptions {
  /** The live config's text. */
  readonly liveYaml?: string;
  /** What GET /auth/status answers: its permissions decide what the pages offer. */
  readonly status?: AuthStatus;
  /** False: a server with only the core endpoints (of the configs', only the edit). */
  readonly offersConfigs?: boolean;
}

export class ConfigServer {
  readonly configs = new Map<string, ConfigRecord>();
  liveId: string;
  /** The edit requests it received. */
  readonly edits: { body: ConfigEditRequest; ifMatch: string | null }[] = [];
  /** For `server.use(...)`. */
  readonly handlers: readonly HttpHandler[];
  private nextId = 1;

  constructor({
    liveYaml = LIVE_YAML,
    status = ADMIN_STATUS,
    offersConfigs = true,
  }: ConfigServerOptions = {}) {
    const live = recordOf({
      id: 'cfg_live',
      kind: 'published',
      label: 'Initial config',
      live: true,
      base_config_id: null,
      yaml: liveYaml,
    });
    this.configs.set(live.id, live);
    this.liveId = live.id;
    this.handlers = this.handlersOf(status, offersConfigs);
  }

  /** The config `id` (throws when there is none). */
  get(id: string): ConfigRecord {
    const record = this.configs.get(id);
    if (!record) throw new Error(`no config ${id}`);
    return record;
  }

  /** Adds a config: by default a draft of the live config with its text. */
  add(fields: Partial<ConfigRecord> & Pick<ConfigRecord, 'id' | 'label'>): void {
    const kind = fields.kind ?? 'draft';
    const made = recordOf({
      id: fields.id,
      kind,
      label: fields.label,
      live: false,
      base_config_id: kind === 'draft' ? this.liveId : null,
      yaml: fields.yaml ?? this.get(this.liveId).yaml,
    });
    this.configs.set(fields.id, { ...made, ...fields });
  }

  /** Someone else saves `yaml` to a config (its revision goes up). */
  saveElsewhere(id: string, yaml: string): void {
    const record = this.get(id);
    this.configs.set(id, recordOf({ ...record, yaml, revision: record.revision + 1 }));
  }

  /** `record` becomes the live config; a draft it was published from is used up. */
  private goLive(record: ConfigRecord, from: ConfigRecord | null = null): ConfigRecord {
    if (from?.kind === 'draft') this.configs.delete(from.id);
    this.configs.set(record.id, record);
    for (const [key, value] of this.configs) {
      this.configs.set(key, { ...value, live: key === record.id });
    }
    this.liveId = record.id;
    return this.get(record.id);
  }

  private publishedOf(from: ConfigRecord, label: string, yaml = from.yaml): ConfigRecord {
    return recordOf({
      id: `cfg_pub_${this.nextId++}`,
      kind: 'published',
      label,
      live: true,
      base_config_id: from.id,
      yaml,
    });
  }

  /** `POST /config/edit`: a draft edit, or a lifecycle step that publishes its result. */
  private edit(body: ConfigEditRequest, ifMatch: string | null): ContractReply<'editConfig'> {
    this.edits.push({ body, ifMatch });
    const target = this.configs.get(body.config_id ?? this.liveId);
    if (!target) return { problem: problemOf('not_found', 'The config was not found') };
    const current = [etagOf(target.id, target.revision), `"${target.revision}"`];
    if (ifMatch !== null && !current.includes(ifMatch)) {
      const detail = `The config ${target.id} is at revision ${target.revision}`;
      return { problem: problemOf('precondition_failed', detail) };
    }
    const applied = applyEdit({ parsed: parseConfig(target.yaml) }, body.operations, {
      now: new Date(EDITED_AT),
      source: { type: 'draft', name: 'Draft' },
    });
    if (applied.kind === 'too_large') {
      return { problem: problemOf('config_too_large', 'The config would be too large') };
    }
    if (applied.kind === 'refused') {
      const { code, message } = applied.refusal;
      return { problem: { ...problemOf('conflict', message), type: problemTypeUri(code), code } };
    }
    const yaml = applied.text;
    const summary = body.summary?.trim();
    let result: ConfigRecord;
    if (body.operations.some((operation) => isLifecycleAction(actionKeyOf(operation)))) {
      result = this.publishedOf(target, summary || 'Lifecycle step', yaml);
      if (!result.validation.valid) {
        return {
          problem: problemOf(
            'invalid_config',
            'The result would not be valid, and the live config must always be valid',
            { validation: result.validation },
          ),
        };
      }
      this.goLive(result, target);
    } else {
      result =
        target.kind === 'draft'
          ? {
              ...recordOf({ ...target, yaml, revision: target.revision + 1 }),
              updated_at: EDITED_AT,
            }
          : recordOf({
              id: `cfg_draft_${this.nextId++}`,
              kind: 'draft',
              label: summary ?? 'Draft',
              live: false,
              base_config_id: target.id,
              yaml,
            });
      this.configs.set(result.id, result);
    }
    const edited: ConfigEditResult = {
      id: result.id,
      account_id: 'acc_1',
      kind: result.kind,
      created: result.id !== target.id,
      base_config_id: target.id,
      applied_paths: applied.appliedPaths,
      applied_ranges: applied.appliedRanges,
      merged_revisions: [],
      config: summaryOf(result),
      validation: result.validation,
      revision: result.revision,
    };
    return { status: 200, body: edited, headers: { ETag: etagOf(result.id, result.revision) } };
  }

  private handlersOf(status: AuthStatus, offersConfigs: boolean): HttpHandler[] {
    // A server with only the core endpoints answers the others as unknown routes.
    const serve = <N extends EndpointName>(name: N, resolve: ContractResolver<N>) =>
      offersConfigs || contract[name].seed ? handle(name, resolve) : notOffered(name);
    const existing = (id: string) => this.configs.get(id);
    return [
      serve('getAuthStatus', () => ({ status: 200, body: status })),
      serve('editConfig', ({ body, headers }) =>
        // The schema's refinement holds each operation to one action, as the type says.
        this.edit(body as ConfigEditRequest, headers['if-match'] ?? null),
      ),
      serve('listConfigs', () => ({
        status: 200,
        body: [...this.configs.values()].map(summaryOf).reverse(),
      })),
      // Before getConfig: `live` is a route, not an id.
      serve('getLiveConfig', () => withEtag(this.get(this.liveId))),
      serve('getConfig', ({ params }) => {
        const record = existing(params.id);
        return record ? withEtag(record) : notFound(params.id);
      }),
      serve('getConfigSchema', () => ({ status: 200, body: { ...configJsonSchema } })),
      serve('getConfigHistory', ({ params }) =>
        existing(params.id) ? { status: 200, body: [] } : notFound(params.id),
      ),
      serve('deleteConfig', ({ params }) => {
        if (!this.configs.delete(params.id)) return notFound(params.id);
        return { status: 204 };
      }),
      serve('activateConfig', ({ params }) => {
        const record = existing(params.id);
        return record ? withEtag(this.goLive(record)) : notFound(params.id);
      }),
      serve('publishConfig', ({ params, body }) => {
        const draft = existing(params.id);
        if (!draft) return notFound(params.id);
        const label = body?.summary?.trim() || draft.label;
        return withEtag(this.goLive(this.publishedOf(draft, label), draft));
      }),
    ];
  }
}
