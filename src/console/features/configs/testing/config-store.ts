/**
 * The configs of one account, in memory, for the configs pages' component tests. Edits are
 * applied and validated with the real config domain (src/configs), so reports, positions
 * and revisions behave as the service's do; config-handlers.ts serves it over HTTP.
 */
import {
  applyOperations,
  parseConfig,
  stringifyConfig,
  validateConfigText,
} from '../../../../configs';
import { appliedRangesOf } from '../../../../configs/applied-ranges';
import type { ConfigEditRequest, ConfigEditResult } from '../../../../contract/config-edit';
import { etagOf, type ConfigRecord, type ConfigSummary } from '../../../../contract/configs';
import { actionKeyOf, isLifecycleAction } from '../../../../contract/operations';
import { problemOf, type Problem } from '../../../../contract/problem';

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
/** When the store's edits happen: the console can only know it from the answer. */
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

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly problem: Problem };

export class ConfigStore {
  readonly configs = new Map<string, ConfigRecord>();
  liveId: string;
  /** The edit requests it received. */
  readonly edits: { body: ConfigEditRequest; ifMatch: string | null }[] = [];
  private nextId = 1;

  constructor(liveYaml = LIVE_YAML) {
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
  }

  /** The config `id` (throws when there is none). */
  get(id: string): ConfigRecord {
    const record = this.configs.get(id);
    if (!record) throw new Error(`no config ${id}`);
    return record;
  }

  /** Adds a config made from the live one with these fields. */
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
    this.configs.set(id, { ...recordOf({ ...record, yaml }), revision: record.revision + 1 });
  }

  /** Newest first. */
  list(): ConfigSummary[] {
    return [...this.configs.values()].map(summaryOf).reverse();
  }

  discard(id: string): void {
    this.configs.delete(id);
  }

  activate(id: string): ConfigRecord {
    this.liveId = id;
    for (const [key, value] of this.configs) this.configs.set(key, { ...value, live: key === id });
    return this.get(id);
  }

  /** `from` becomes a new published config, live; a draft is consumed. */
  publish(from: ConfigRecord, label: string, yaml = from.yaml): ConfigRecord {
    const published = recordOf({
      id: `cfg_pub_${this.nextId++}`,
      kind: 'published',
      label,
      live: true,
      base_config_id: from.id,
      yaml,
    });
    if (from.kind === 'draft') this.configs.delete(from.id);
    for (const [key, value] of this.configs) this.configs.set(key, { ...value, live: false });
    this.configs.set(published.id, published);
    this.liveId = published.id;
    return published;
  }

  /** `POST /config/edit`: a draft edit, or a lifecycle step that publishes its result. */
  edit(body: ConfigEditRequest, ifMatch: string | null): Outcome<ConfigEditResult> {
    this.edits.push({ body, ifMatch });
    const target = this.configs.get(body.config_id ?? this.liveId);
    if (!target) return { problem: problemOf('not_found', 'The config was not found') };
    const current = [etagOf(target.id, target.revision), `"${target.revision}"`];
    if (ifMatch !== null && !current.includes(ifMatch)) {
      return {
        problem: problemOf(
          'precondition_failed',
          `The config ${target.id} is at revision ${target.revision}`,
        ),
      };
    }
    const parsed = parseConfig(target.yaml);
    const applied = applyOperations(parsed.document, body.operations);
    if (!applied.ok) return { problem: problemOf('conflict', applied.refusal.message) };
    const yaml = stringifyConfig(parsed.document);
    const summary = body.summary?.trim();
    if (body.operations.some((operation) => isLifecycleAction(actionKeyOf(operation)))) {
      const validation = validateConfigText(yaml, { type: 'published', name: summary ?? '' });
      if (!validation.valid) {
        return {
          problem: problemOf(
            'invalid_config',
            'The result would not be valid, and the live config must always be valid',
            { validation },
          ),
        };
      }
      const published = this.publish(target, summary || 'Lifecycle step', yaml);
      return { ok: true, value: this.resultOf(published, target, body, applied.appliedPaths) };
    }
    const draft =
      target.kind === 'draft'
        ? { ...recordOf({ ...target, yaml }), revision: target.revision + 1, updated_at: EDITED_AT }
        : recordOf({
            id: `cfg_draft_${this.nextId++}`,
            kind: 'draft',
            label: summary ?? 'Draft',
            live: false,
            base_config_id: target.id,
            yaml,
          });
    this.configs.set(draft.id, draft);
    return {
      ok: true,
      value: this.resultOf(draft, target, body, applied.appliedPaths),
    };
  }

  private resultOf(
    config: ConfigRecord,
    target: ConfigRecord,
    { operations }: ConfigEditRequest,
    appliedPaths: string[],
  ): ConfigEditResult {
    return {
      id: config.id,
      account_id: 'acc_1',
      kind: config.kind,
      created: config.id !== target.id,
      base_config_id: target.id,
      applied_paths: appliedPaths,
      applied_ranges: appliedRangesOf(parseConfig(config.yaml), appliedPaths, operations),
      config: summaryOf(config),
      validation: config.validation,
      revision: config.revision,
    };
  }
}
