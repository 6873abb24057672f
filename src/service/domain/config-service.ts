/**
 * What the config endpoints do (api.md §3, §5; config.md §3): edits land in drafts,
 * lifecycle operations publish, publish / activate / discard move the live pointer and the
 * drafts. Every change is one unit of work in the store: all of it lands or none does, and
 * the live config is always valid.
 */
import type { ConfigEditRequest, ConfigEditResult, ConfigKind } from '../../contract/config-edit';
import type { ConfigRecord, ConfigSummary, HistoryEntry } from '../../contract/configs';
import { actionKeyOf, isLifecycleAction, itemsOf, type Operation } from '../../contract/operations';
import { PROBLEM_CODES, problemTypeUri } from '../../contract/problem';
import type { ValidationReport } from '../../contract/validation';
import type { OperationRefusal } from '../../configs/operations/refusal';
import { DocumentCache } from '../edit-work/document-cache';
import type { EditPool } from '../edit-work/edit-pool';
import { runEditTask, type EditTask, type EditTaskResult } from '../edit-work/edit-task';
import { HttpProblem, notFound } from '../http-problem';
import { newId } from '../ids';
import type { ConfigRecordRow, HistoryRecord, Principal } from '../store/records';
import type { ConfigTransaction, Store } from '../store/store';
import type { Clock } from './clock';
import { OneAtATime } from './one-at-a-time';

/**
 * An edit computed from a revision that is no longer current is computed again; the last
 * attempt holds the account's lock while it computes, so it cannot be stale.
 */
const MAX_EDIT_ATTEMPTS = 4;

export interface EditOutcome {
  readonly result: ConfigEditResult;
  readonly revision: number;
}

/** What an edit's If-Match names: the target's revision, and perhaps its id. */
export interface ExpectedTarget {
  readonly id?: string;
  readonly revision: number;
}

export class ConfigService {
  private readonly oneAtATime = new OneAtATime();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly edits: EditPool,
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

  /**
   * POST /config/edit. `expected` comes from If-Match: the target's revision, and its id
   * when the If-Match was a config's ETag. The edit is computed in a
   * worker from the config as read, then stored only if the config is still at that
   * revision. When another instance stored an edit meanwhile, it is computed again: under
   * the account's lock where the store can hold one while it waits (PostgreSQL); on SQLite
   * optimistically, then at last inside the write transaction.
   */
  async edit(
    principal: Principal,
    request: ConfigEditRequest,
    expected?: ExpectedTarget,
  ): Promise<EditOutcome> {
    const accountId = principal.account.id;
    const reads = request.config_id ? { ids: [request.config_id] } : { live: true };
    return this.oneAtATime.run(request.config_id ?? `live of ${accountId}`, async () => {
      for (let attempt = 1; attempt <= MAX_EDIT_ATTEMPTS; attempt++) {
        if (attempt === MAX_EDIT_ATTEMPTS && !this.store.changeConfigsWhileLocked) {
          // Another process on the SQLite file won every race so far: compute this once in
          // the write transaction, on this thread, so that it cannot lose again.
          return this.store.changeConfigs(accountId, reads, (tx) => {
            const target = editTarget(request, tx.liveId(), (id) => tx.get(id));
            const prepared = this.editTask(request, target, expected);
            const computed = computedEdit(
              prepared,
              runEditTask(new DocumentCache(0), prepared.task),
            );
            return storeEdit(tx, principal, request, target, computed);
          });
        }
        if (attempt > 1 && this.store.changeConfigsWhileLocked) {
          return this.store.changeConfigsWhileLocked(accountId, reads, async (tx) => {
            const target = editTarget(request, tx.liveId(), (id) => tx.get(id));
            const computed = await this.compute(principal, request, target, expected);
            return storeEdit(tx, principal, request, target, computed);
          });
        }
        const liveId = request.config_id ? undefined : await this.store.getLiveId(accountId);
        const targetId = request.config_id ?? liveId;
        const row = targetId && (await this.store.getConfig(accountId, targetId));
        const target = editTarget(request, liveId, () => row || undefined);
        const computed = await this.compute(principal, request, target, expected);
        const outcome = await this.store.changeConfigs(accountId, reads, (tx) => {
          const current = editTarget(request, tx.liveId(), (id) => tx.get(id));
          if (current.id !== target.id || current.revision !== target.revision) return 'stale';
          return storeEdit(tx, principal, request, target, computed);
        });
        if (outcome !== 'stale') return outcome;
      }
      throw new Error('unreachable: the last attempt cannot be stale');
    });
  }

  /** The edit's CPU work, in the edit pool. */
  private async compute(
    principal: Principal,
    request: ConfigEditRequest,
    target: ConfigRecordRow,
    expected: ExpectedTarget | undefined,
  ): Promise<ComputedEdit> {
    const task = this.editTask(request, target, expected);
    return computedEdit(task, await this.edits.run(principal.account.id, task.task));
  }

  /** What the edit pool is asked to compute, and what the result will be stored as. */
  private editTask(
    request: ConfigEditRequest,
    target: ConfigRecordRow,
    expected: ExpectedTarget | undefined,
  ): PreparedEdit {
    if (expected !== undefined && expected.id !== undefined && expected.id !== target.id) {
      throw HttpProblem.of(
        'precondition_failed',
        `The target is the config ${target.id}, not ${expected.id}: reload it and apply the edit again`,
      );
    }
    if (expected !== undefined && expected.revision !== target.revision) {
      throw HttpProblem.of(
        'precondition_failed',
        `The config ${target.id} is at revision ${target.revision}, not ${expected.revision}: reload it and apply the edit again`,
      );
    }
    const lifecycle = request.operations.some((operation) =>
      isLifecycleAction(actionKeyOf(operation)),
    );
    const resultId = lifecycle || target.kind !== 'draft' ? newId('cfg_') : target.id;
    const label = lifecycle
      ? request.summary?.trim() || defaultLifecycleLabel(request.operations)
      : target.kind === 'draft'
        ? target.label
        : request.summary?.trim() || defaultDraftLabel(request.operations);
    const now = this.clock();
    return {
      lifecycle,
      label,
      at: now.toISOString(),
      task: {
        configId: target.id,
        text: target.yaml,
        operations: request.operations,
        now,
        resultId,
        source: { type: lifecycle ? 'published' : 'draft', name: label },
      },
    };
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

interface PreparedEdit {
  readonly lifecycle: boolean;
  readonly label: string;
  readonly at: string;
  readonly task: EditTask;
}

/** The edit pool's answer as what is stored; refusals become problems here. */
function computedEdit(prepared: PreparedEdit, result: EditTaskResult): ComputedEdit {
  if (result.kind === 'refused') throw refusalProblem(result.refusal);
  if (result.kind === 'too_large') {
    throw HttpProblem.of(
      'config_too_large',
      `The resulting config would be over ${result.limitBytes} bytes`,
    );
  }
  const { report } = result;
  if (prepared.lifecycle && !report.valid) {
    throw HttpProblem.of(
      'invalid_config',
      `The result would not be valid (${report.error_count} error${report.error_count === 1 ? '' : 's'}), and the live config must always be valid`,
      { validation: report },
    );
  }
  const { lifecycle, label, at, task } = prepared;
  return { ...result, lifecycle, label, at, resultId: task.resultId };
}

interface ComputedEdit {
  readonly lifecycle: boolean;
  /** The config the result is stored as: the same draft, or a new draft or published config. */
  readonly resultId: string;
  readonly label: string;
  readonly at: string;
  readonly yaml: string;
  readonly report: ValidationReport;
  readonly appliedPaths: string[];
}

/** The config an edit applies to: `config_id`, else the live config. */
function editTarget(
  request: ConfigEditRequest,
  liveId: string | undefined,
  read: (id: string) => ConfigRecordRow | undefined,
): ConfigRecordRow {
  const id = request.config_id ?? liveId;
  const row = id === undefined ? undefined : read(id);
  if (!row) throw notFound(request.config_id ? `The config ${request.config_id}` : 'A live config');
  return row;
}

/** Writes a computed edit in the unit of work `tx`. */
function storeEdit(
  tx: ConfigTransaction,
  principal: Principal,
  request: ConfigEditRequest,
  target: ConfigRecordRow,
  computed: ComputedEdit,
): EditOutcome {
  const { resultId, label, at, yaml, report, appliedPaths } = computed;
  const entry = (action: HistoryRecord['action'], revision: number, summary: string | null) =>
    history(principal, resultId, action, at, revision, summary, request.operations, appliedPaths);
  const result = (kind: ConfigKind, created: boolean) =>
    editResult(principal, resultId, kind, created, target.id, appliedPaths, report);

  if (computed.lifecycle) {
    tx.insert(
      newRow({
        id: resultId,
        kind: 'published',
        label,
        report,
        base: target.id,
        at,
        published: true,
      }),
    );
    tx.setLive(resultId);
    if (target.kind === 'draft') tx.close(target.id, 'published', at);
    tx.addHistory(entry('lifecycle', 1, label));
    return { result: result('published', true), revision: 1 };
  }
  if (target.kind === 'draft') {
    const revision = target.revision + 1;
    tx.update(target.id, { ...reportColumns(report), yaml, revision, updated_at: at });
    tx.addHistory(entry('edit', revision, request.summary ?? null));
    return { result: result('draft', false), revision };
  }
  tx.insert(
    newRow({ id: resultId, kind: 'draft', label, report, base: target.id, at, published: false }),
  );
  tx.addHistory(entry('edit', 1, request.summary ?? null));
  return { result: result('draft', true), revision: 1 };
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
