/**
 * What the config endpoints do (api.md §3, §5; config.md §3): edits land in drafts,
 * lifecycle operations publish, publish / activate / discard move the live pointer and the
 * drafts. Every change is one unit of work in the store: all of it lands or none does, and
 * the live config is always valid.
 */
import type { ConfigEditRequest, ConfigEditResult, ConfigKind } from '../../contract/config-edit';
import type { ConfigRecord, ConfigSummary, HistoryEntry } from '../../contract/configs';
import { MAX_CONFIG_YAML_BYTES } from '../../contract/endpoints';
import { actionKeyOf, isLifecycleAction, itemsOf, type Operation } from '../../contract/operations';
import { PROBLEM_CODES, problemTypeUri } from '../../contract/problem';
import type { ValidationReport } from '../../contract/validation';
import { editBaseOf, parseEdited } from '../../configs/incremental-parse';
import { writeEdited } from '../../configs/incremental-stringify';
import { applyOperations } from '../../configs/operations/apply-operations';
import { EditChanges } from '../../configs/operations/edit-changes';
import type { OperationRefusal } from '../../configs/operations/refusal';
import { parseConfig, type ParsedConfig } from '../../configs/parse';
import { validateEdited } from '../../configs/validation/validate-edited';
import { HttpProblem, notFound } from '../http-problem';
import { newId } from '../ids';
import type { ConfigRecordRow, HistoryRecord, Principal } from '../store/records';
import type { Store } from '../store/store';
import type { Clock } from './clock';
import { DocumentCache } from './document-cache';

export interface EditOutcome {
  readonly result: ConfigEditResult;
  readonly revision: number;
}

export class ConfigService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly cache = new DocumentCache(),
  ) {}

  async list(principal: Principal, kind?: ConfigKind): Promise<ConfigSummary[]> {
    const { configs, liveId } = await this.store.listConfigs(principal.account.id, kind);
    return configs.map((row) => {
      const { yaml: _yaml, validation: _validation, ...summary } = toRecord(row, liveId);
      return {
        ...summary,
        valid: row.valid,
        error_count: row.error_count,
        warning_count: row.warning_count,
      };
    });
  }

  async get(principal: Principal, id: string): Promise<ConfigRecord> {
    const row = await this.store.getConfig(principal.account.id, id);
    if (!row) throw notFound(`The config ${id}`);
    return toRecord(row, await this.store.getLiveId(principal.account.id));
  }

  async getLive(principal: Principal): Promise<ConfigRecord> {
    const liveId = await this.store.getLiveId(principal.account.id);
    if (!liveId) throw notFound('A live config');
    return this.get(principal, liveId);
  }

  async history(principal: Principal, id: string): Promise<HistoryEntry[]> {
    if (!(await this.store.getConfig(principal.account.id, id))) throw notFound(`The config ${id}`);
    return (await this.store.history(principal.account.id, id)).map(toHistoryEntry);
  }

  /** POST /config/edit. `expectedRevision` comes from If-Match. */
  async edit(
    principal: Principal,
    request: ConfigEditRequest,
    expectedRevision?: number,
  ): Promise<EditOutcome> {
    const lifecycle = request.operations.some((operation) =>
      isLifecycleAction(actionKeyOf(operation)),
    );
    const now = this.clock();
    const at = now.toISOString();
    let written: { id: string; revision: number; parsed: ParsedConfig } | undefined;

    const reads = request.config_id ? { ids: [request.config_id] } : { live: true };
    const result = await this.store.changeConfigs(principal.account.id, reads, (tx) => {
      const targetId = request.config_id ?? tx.liveId();
      const target = targetId === undefined ? undefined : tx.get(targetId);
      if (!target)
        throw notFound(request.config_id ? `The config ${request.config_id}` : 'A live config');
      if (expectedRevision !== undefined && expectedRevision !== target.revision) {
        throw HttpProblem.of(
          'precondition_failed',
          `The config ${target.id} is at revision ${target.revision}, not ${expectedRevision}: reload it and apply the edit again`,
        );
      }

      // The cached document is edited in place; a refusal below leaves it out of the cache.
      const parsed = this.cache.take(target.id, target.revision) ?? parseConfig(target.yaml);
      const base = editBaseOf(parsed);
      const changes = new EditChanges();
      const applied = applyOperations(parsed.document, request.operations, { now, changes });
      if (!applied.ok) throw refusalProblem(applied.refusal);
      const yaml = writeEdited(base, parsed.document, changes);
      if (Buffer.byteLength(yaml) > MAX_CONFIG_YAML_BYTES) {
        throw HttpProblem.of(
          'config_too_large',
          `The resulting config would be over ${MAX_CONFIG_YAML_BYTES} bytes`,
        );
      }
      // Positions for the report: only the changed items are parsed again when that gives
      // what a whole parse would (src/configs/incremental-parse.ts).
      const next = parseEdited(base, parsed.document, yaml, changes);

      if (lifecycle) {
        const label = request.summary?.trim() || defaultLifecycleLabel(request.operations);
        const report = validateEdited(next, { type: 'published', name: label });
        if (!report.valid) {
          throw HttpProblem.of(
            'invalid_config',
            `The result would not be valid (${report.error_count} error${report.error_count === 1 ? '' : 's'}), and the live config must always be valid`,
            { validation: report },
          );
        }
        const id = newId('cfg_');
        tx.insert(
          newRow({ id, kind: 'published', label, report, base: target.id, at, published: true }),
        );
        tx.setLive(id);
        if (target.kind === 'draft') tx.close(target.id, 'published', at);
        tx.addHistory(
          history(
            principal,
            id,
            'lifecycle',
            at,
            1,
            label,
            request.operations,
            applied.appliedPaths,
          ),
        );
        written = { id, revision: 1, parsed: next };
        return editResult(
          principal,
          id,
          'published',
          true,
          target.id,
          applied.appliedPaths,
          report,
        );
      }

      if (target.kind === 'draft') {
        const report = validateEdited(next, { type: 'draft', name: target.label });
        const revision = target.revision + 1;
        tx.update(target.id, { ...reportColumns(report), yaml, revision, updated_at: at });
        tx.addHistory(
          history(
            principal,
            target.id,
            'edit',
            at,
            revision,
            request.summary ?? null,
            request.operations,
            applied.appliedPaths,
          ),
        );
        written = { id: target.id, revision, parsed: next };
        return editResult(
          principal,
          target.id,
          'draft',
          false,
          target.id,
          applied.appliedPaths,
          report,
        );
      }

      const label = request.summary?.trim() || defaultDraftLabel(request.operations);
      const report = validateEdited(next, { type: 'draft', name: label });
      const id = newId('cfg_');
      tx.insert(
        newRow({ id, kind: 'draft', label, report, base: target.id, at, published: false }),
      );
      tx.addHistory(
        history(
          principal,
          id,
          'edit',
          at,
          1,
          request.summary ?? null,
          request.operations,
          applied.appliedPaths,
        ),
      );
      written = { id, revision: 1, parsed: next };
      return editResult(principal, id, 'draft', true, target.id, applied.appliedPaths, report);
    });

    if (written) this.cache.put(written.id, written.revision, written.parsed);
    return { result, revision: written?.revision ?? 1 };
  }

  /** POST /configs/{id}/publish: a valid draft becomes a new published version, live. */
  async publish(principal: Principal, id: string, summary?: string): Promise<ConfigRecord> {
    const at = this.clock().toISOString();
    const publishedId = await this.store.changeConfigs(
      principal.account.id,
      { ids: [id] },
      (tx) => {
        const draft = tx.get(id);
        if (!draft) throw notFound(`The config ${id}`);
        if (draft.kind !== 'draft')
          throw HttpProblem.of(
            'conflict',
            `The config ${id} is already published; only drafts are published`,
          );
        const label = summary?.trim() || draft.label;
        const report = storedReport({ ...draft, kind: 'published', label });
        if (!report.valid) {
          throw HttpProblem.of(
            'invalid_config',
            `The draft has ${report.error_count} error${report.error_count === 1 ? '' : 's'}; fix them before publishing`,
            { validation: report },
          );
        }
        const publishedId = newId('cfg_');
        tx.insert(
          newRow({
            id: publishedId,
            kind: 'published',
            label,
            report,
            base: draft.id,
            at,
            published: true,
          }),
        );
        tx.setLive(publishedId);
        tx.close(draft.id, 'published', at);
        tx.addHistory(history(principal, publishedId, 'publish', at, 1, label, [], []));
        return publishedId;
      },
    );
    return this.get(principal, publishedId);
  }

  /** POST /configs/{id}/activate: an earlier published version becomes live again. */
  async activate(principal: Principal, id: string): Promise<ConfigRecord> {
    const at = this.clock().toISOString();
    await this.store.changeConfigs(principal.account.id, { ids: [id] }, (tx) => {
      const config = tx.get(id);
      if (!config) throw notFound(`The config ${id}`);
      if (config.kind !== 'published')
        throw HttpProblem.of('conflict', `The config ${id} is a draft; publish it instead`);
      // Published configs were valid when published; rules may have grown since.
      if (!config.valid) {
        throw HttpProblem.of(
          'invalid_config',
          `The config ${id} is not valid under the current rules`,
          {
            validation: storedReport(config),
          },
        );
      }
      tx.setLive(id);
      tx.addHistory(history(principal, id, 'activate', at, config.revision, config.label, [], []));
    });
    return this.get(principal, id);
  }

  /** DELETE /configs/{id}: discards a draft. */
  async discard(principal: Principal, id: string): Promise<void> {
    const at = this.clock().toISOString();
    await this.store.changeConfigs(principal.account.id, { ids: [id] }, (tx) => {
      const config = tx.get(id);
      if (!config) throw notFound(`The config ${id}`);
      if (config.kind !== 'draft')
        throw HttpProblem.of(
          'conflict',
          `The config ${id} is published; only drafts can be discarded`,
        );
      tx.close(id, 'discarded', at);
      tx.addAudit({
        account_id: principal.account.id,
        at,
        action: 'config.discard',
        actor: principal.key.id,
        target_id: id,
        detail: { label: config.label },
      });
    });
  }
}

function refusalProblem(refusal: OperationRefusal): HttpProblem {
  const generic =
    refusal.status === 400
      ? 'invalid_request'
      : refusal.status === 409
        ? 'conflict'
        : 'unknown_target';
  return new HttpProblem({
    type: problemTypeUri(refusal.code),
    title: PROBLEM_CODES[generic].title,
    status: refusal.status,
    detail: refusal.message,
    code: refusal.code,
    errors: [{ path: refusal.requestPath, message: refusal.message }],
  });
}

function reportColumns(report: ValidationReport) {
  return {
    valid: report.valid,
    error_count: report.error_count,
    warning_count: report.warning_count,
    issues: report.issues,
  };
}

function newRow(input: {
  id: string;
  kind: ConfigKind;
  label: string;
  report: ValidationReport;
  base: string;
  at: string;
  published: boolean;
}) {
  return {
    id: input.id,
    kind: input.kind,
    label: input.label,
    yaml: input.report.yaml ?? '',
    revision: 1,
    base_config_id: input.base,
    ...reportColumns(input.report),
    created_at: input.at,
    updated_at: input.at,
    published_at: input.published ? input.at : null,
  };
}

function history(
  principal: Principal,
  configId: string,
  action: HistoryRecord['action'],
  at: string,
  revision: number,
  summary: string | null,
  operations: readonly Operation[],
  appliedPaths: readonly string[],
): HistoryRecord {
  return {
    account_id: principal.account.id,
    config_id: configId,
    action,
    at,
    revision,
    summary,
    api_key_id: principal.key.id,
    api_key_name: principal.key.name,
    actor_email: principal.user.email,
    operations,
    applied_paths: appliedPaths,
  };
}

function editResult(
  principal: Principal,
  id: string,
  kind: ConfigKind,
  created: boolean,
  baseId: string,
  appliedPaths: string[],
  validation: ValidationReport,
): ConfigEditResult {
  return {
    id,
    account_id: principal.account.id,
    kind,
    created,
    base_config_id: baseId,
    applied_paths: appliedPaths,
    validation,
  };
}

/** The report of a stored config, from its stored issues: no parse needed. */
export function storedReport(
  row: Pick<ConfigRecordRow, 'yaml' | 'issues' | 'kind' | 'label'>,
): ValidationReport {
  const errors = row.issues.filter((issue) => issue.severity !== 'warning').length;
  return {
    valid: errors === 0,
    error_count: errors,
    warning_count: row.issues.length - errors,
    issues: [...row.issues],
    yaml: row.yaml,
    source: { type: row.kind, name: row.label },
  };
}

export function toRecord(row: ConfigRecordRow, liveId: string | undefined): ConfigRecord {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    revision: row.revision,
    live: row.id === liveId,
    base_config_id: row.base_config_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.published_at ? { published_at: row.published_at } : {}),
    yaml: row.yaml,
    validation: storedReport(row),
  };
}

function toHistoryEntry(record: HistoryRecord): HistoryEntry {
  return {
    at: record.at,
    action: record.action,
    config_id: record.config_id,
    revision: record.revision,
    ...(record.summary !== null ? { summary: record.summary } : {}),
    ...(record.api_key_id !== null ? { api_key_id: record.api_key_id } : {}),
    ...(record.api_key_name !== null ? { api_key_name: record.api_key_name } : {}),
    ...(record.actor_email !== null ? { actor_email: record.actor_email } : {}),
    operations: [...record.operations],
    applied_paths: [...record.applied_paths],
  };
}

const LIFECYCLE_WORDS: Record<string, string> = {
  update_ab_test: 'Update',
  start_ab_test: 'Start',
  end_ab_test: 'End',
  promote_ab_test: 'Promote',
  delete_ab_test: 'Delete',
};

/** E.g. "Start A/B test bigger-button". */
function defaultLifecycleLabel(operations: readonly Operation[]): string {
  return operations
    .flatMap((operation) =>
      itemsOf(operation).map(
        (item) =>
          `${LIFECYCLE_WORDS[actionKeyOf(operation)] ?? 'Change'} A/B test ${String(item.id)}`,
      ),
    )
    .join('; ');
}

/** A draft created by create_ab_test alone (no summary needed) gets a name of its own. */
function defaultDraftLabel(operations: readonly Operation[]): string {
  const ids = operations.flatMap((operation) => itemsOf(operation).map((item) => String(item.id)));
  return `Create A/B test ${ids.join(', ')}`;
}
