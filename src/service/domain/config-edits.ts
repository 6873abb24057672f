/**
 * `POST /config/edit`: operations applied to a draft (or to the live config, making a draft or,
 * for lifecycle steps, a new published version). The CPU work runs in the edit pool; the
 * result is stored in one unit of work, only if the config is still as it was read.
 */
import type { ConfigEditRequest } from '../../contract/config-edit';
import type { ValidationReport } from '../../contract/validation';
import { judgedWithoutBase } from '../../configs/merge/merge-edits';
import type { ValidationContext } from '../../configs/validation/validation-context';
import { actionKeyOf, isLifecycleAction, itemsOf, type Operation } from '../../contract/operations';
import { DocumentCache } from '../edit-work/document-cache';
import type { EditPool } from '../edit-work/edit-pool';
import {
  runEditTask,
  type EditTask,
  type EditTaskResult,
  type MergeTask,
} from '../edit-work/edit-task';
import { newId } from '../ids';
import type { ConfigRecordRow, Principal } from '../store/records';
import type { ConfigTransaction, Store } from '../store/store';
import type { WithinUnit } from './config-service';
import type { Clock } from './clock';
import { EditRefused, refuseEdit } from './edit-refusals';
import { editsAfter, type MergeReads } from './edit-history';
import { metricIdsOf } from './metrics';
import { OneAtATime } from './one-at-a-time';
import { storeEdit, type ComputedEdit, type EditOutcome } from './stored-edit';

export type { EditOutcome } from './stored-edit';

/**
 * An edit computed from a revision that is no longer current is computed again; the last
 * attempt holds the account's lock while it computes, so it cannot be stale.
 */
const MAX_EDIT_ATTEMPTS = 4;

/**
 * How far behind base_revision may be: each newer edit is judged against this one, and the
 * base may have to be rebuilt by replaying the draft's edits.
 */
export const MAX_MERGE_REVISIONS = 1_000;

/** Text that may name metrics: a key `metrics:` or `guardrails:` somewhere. */
const NAMES_METRICS = /(?:^|[\s{,])["']?(?:metrics|guardrails)["']?\s*:/;

/** A draft's report validated again at one of its revisions. */
export interface FreshReport {
  readonly revision: number;
  readonly report: ValidationReport;
}

/** What an edit's If-Match names: the target's revision, and perhaps its id. */
export interface ExpectedTarget {
  readonly id?: string;
  readonly revision: number;
}

export class ConfigEdits {
  private readonly oneAtATime = new OneAtATime();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly edits: EditPool,
  ) {}

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
    within?: WithinUnit,
  ): Promise<EditOutcome> {
    const accountId = principal.account.id;
    const stored = (
      tx: ConfigTransaction,
      target: ConfigRecordRow,
      computed: ComputedEdit,
    ): EditOutcome => {
      const outcome = storeEdit(tx, principal, request, target, computed);
      within?.(tx, outcome.result.id);
      return outcome;
    };
    if (expected !== undefined && request.base_revision !== undefined) {
      throw refuseEdit({
        kind: 'bad_base_revision',
        message:
          'Send If-Match or base_revision, not both: If-Match refuses the edit on any change, base_revision merges it with the edits since',
      });
    }
    const reads = request.config_id ? { ids: [request.config_id] } : { live: true };
    return this.oneAtATime.run(request.config_id ?? `live of ${accountId}`, async () => {
      // Read once for every attempt: what the tests' metric lists are checked against.
      const validation: ValidationContext = { metricIds: await metricIdsOf(this.store, accountId) };
      for (let attempt = 1; attempt <= MAX_EDIT_ATTEMPTS; attempt++) {
        if (attempt === MAX_EDIT_ATTEMPTS && !this.store.changeConfigsWhileLocked) {
          // Another process on the SQLite file won every race so far: compute this once in
          // the write transaction, on this thread, so that it cannot lose again. What a merge
          // needs is read first; if the config moves on meanwhile, the merge is refused.
          const planned = await this.plannedMerge(accountId, request);
          return this.store.changeConfigs(accountId, reads, (tx) => {
            const target = editTarget(request, tx.liveId(), (id) => tx.get(id));
            const merge = planned.mergeFor(target);
            const prepared = this.editTask(request, target, expected, merge, validation);
            const computed = computedEdit(
              prepared,
              runEditTask(new DocumentCache(0), prepared.task),
            );
            return stored(tx, target, computed);
          });
        }
        if (attempt > 1 && this.store.changeConfigsWhileLocked) {
          return this.store.changeConfigsWhileLocked(accountId, reads, async (tx) => {
            const target = editTarget(request, tx.liveId(), (id) => tx.get(id));
            // Read on the unit's connection: the pool may have none left to lend.
            const merge = await this.mergeTask(tx, request, target);
            const computed = await this.compute(
              principal,
              request,
              target,
              expected,
              merge,
              validation,
            );
            return stored(tx, target, computed);
          });
        }
        const liveId = request.config_id ? undefined : await this.store.getLiveId(accountId);
        const targetId = request.config_id ?? liveId;
        const row = targetId && (await this.store.getConfig(accountId, targetId));
        const target = editTarget(request, liveId, () => row || undefined);
        const merge = await this.mergeTask(this.storeReads(accountId), request, target);
        const computed = await this.compute(
          principal,
          request,
          target,
          expected,
          merge,
          validation,
        );
        const outcome = await this.store.changeConfigs(accountId, reads, (tx) => {
          const current = editTarget(request, tx.liveId(), (id) => tx.get(id));
          if (current.id !== target.id || current.revision !== target.revision) return 'stale';
          return stored(tx, target, computed);
        });
        if (outcome !== 'stale') return outcome;
      }
      throw new Error('unreachable: the last attempt cannot be stale');
    });
  }

  /**
   * A draft's report validated again, off the main thread, against the account's metrics
   * as they are now: what its publish stores, as metrics may have come and gone since its
   * last edit. Undefined when its text names no metric (its stored report is then exact)
   * or the pool is too busy (the stored report serves).
   */
  async revalidated(accountId: string, id: string): Promise<FreshReport | undefined> {
    const draft = await this.store.getConfig(accountId, id);
    if (!draft || draft.kind !== 'draft' || !NAMES_METRICS.test(draft.yaml)) return undefined;
    const validation = { metricIds: await metricIdsOf(this.store, accountId) };
    // The saved text as typed text: validated as it is, byte for byte.
    const task: EditTask = {
      configId: draft.id,
      text: draft.yaml,
      operations: [{ edit_text: [{ changes: [] }] }],
      now: this.clock(),
      resultId: draft.id,
      source: { type: draft.kind, name: draft.label },
      validation,
    };
    try {
      const result = await this.edits.run(accountId, task);
      if (result.kind !== 'applied' || result.yaml !== draft.yaml) return undefined;
      return { revision: draft.revision, report: result.report };
    } catch (error) {
      if (error instanceof EditRefused && error.refusal.kind === 'edit_queue_full')
        return undefined;
      throw error;
    }
  }

  /** The edit's CPU work, in the edit pool. */
  private async compute(
    principal: Principal,
    request: ConfigEditRequest,
    target: ConfigRecordRow,
    expected: ExpectedTarget | undefined,
    merge: MergeTask | undefined,
    validation: ValidationContext,
  ): Promise<ComputedEdit> {
    const task = this.editTask(request, target, expected, merge, validation);
    return computedEdit(task, await this.edits.run(principal.account.id, task.task));
  }

  /** What the edit pool is asked to compute, and what the result will be stored as. */
  private editTask(
    request: ConfigEditRequest,
    target: ConfigRecordRow,
    expected: ExpectedTarget | undefined,
    merge: MergeTask | undefined,
    validation: ValidationContext,
  ): PreparedEdit {
    if (expected !== undefined && expected.id !== undefined && expected.id !== target.id) {
      throw refuseEdit({
        kind: 'target_changed',
        message: `The target is the config ${target.id}, not ${expected.id}: reload it and apply the edit again`,
      });
    }
    if (expected !== undefined && expected.revision !== target.revision) {
      throw refuseEdit({
        kind: 'target_changed',
        message: `The config ${target.id} is at revision ${target.revision}, not ${expected.revision}: reload it and apply the edit again`,
      });
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
        validation,
        ...(merge ? { merge } : {}),
      },
    };
  }

  /**
   * What judging a merge needs when base_revision is older than the target's revision: the
   * edits since, and what rebuilds the base (the text the draft was copied from and its
   * edits up to the base). A published config never changes, so it is always at its
   * revision and nothing merges there.
   */
  private async mergeTask(
    reads: MergeReads,
    request: ConfigEditRequest,
    target: ConfigRecordRow,
  ): Promise<MergeTask | undefined> {
    const base = request.base_revision;
    if (base === undefined || base === target.revision) return undefined;
    if (base > target.revision) {
      throw refuseEdit({
        kind: 'bad_base_revision',
        message: `The config ${target.id} is at revision ${target.revision}: base_revision ${base} is not one of its revisions`,
      });
    }
    const behind = target.revision - base;
    if (behind > MAX_MERGE_REVISIONS) {
      throw refuseEdit({
        kind: 'merge_out_of_reach',
        message: `base_revision ${base} is ${behind} revisions behind the config ${target.id}, more than the ${MAX_MERGE_REVISIONS} an edit is merged across: reload the config and make the edit again`,
      });
    }
    const newer = await editsAfter(reads, target, base);
    if (judgedWithoutBase(request.operations, newer)) {
      return { newer, copiedFrom: undefined, earlier: [] };
    }
    // The base is rebuilt in the worker: the text the draft was copied from, and its edits.
    const earlier = await editsAfter(reads, target, 0);
    const copiedFrom =
      target.base_config_id === null ? undefined : await reads.getConfig(target.base_config_id);
    return {
      newer,
      copiedFrom: copiedFrom?.yaml,
      earlier: earlier.slice(0, base).map((edit) => edit.operations),
    };
  }

  /** The account's history and configs, read from the store. */
  private storeReads(accountId: string): MergeReads {
    return {
      getConfig: (id) => this.store.getConfig(accountId, id),
      historyAfter: (configId, revision) => this.store.historyAfter(accountId, configId, revision),
    };
  }

  /**
   * The merge of an edit read before its unit of work: usable for the target as it was read
   * then, refused if the config moved on before the unit of work began.
   */
  private async plannedMerge(
    accountId: string,
    request: ConfigEditRequest,
  ): Promise<{ mergeFor(target: ConfigRecordRow): MergeTask | undefined }> {
    if (request.base_revision === undefined) return { mergeFor: () => undefined };
    const id = request.config_id ?? (await this.store.getLiveId(accountId));
    const read = id === undefined ? undefined : await this.store.getConfig(accountId, id);
    const merge = read && (await this.mergeTask(this.storeReads(accountId), request, read));
    return {
      mergeFor: (target) => {
        if (request.base_revision === target.revision) return undefined;
        if (read?.id === target.id && read.revision === target.revision) return merge;
        throw refuseEdit({
          kind: 'merge_out_of_reach',
          message: `The config ${target.id} changed again while this edit was being merged: send it again`,
        });
      },
    };
  }
}

interface PreparedEdit {
  readonly lifecycle: boolean;
  readonly label: string;
  readonly at: string;
  readonly task: EditTask;
}

/** The edit pool's answer as what is stored, or why nothing is. */
function computedEdit(prepared: PreparedEdit, result: EditTaskResult): ComputedEdit {
  if (result.kind === 'conflict') {
    const paths = result.conflicts.map((conflict) => conflict.path);
    const fields =
      paths.length > 5
        ? `${paths.slice(0, 5).join(', ')} and ${paths.length - 5} more`
        : paths.join(', ');
    const revisions = [...new Set(result.conflicts.map((conflict) => conflict.revision))];
    throw refuseEdit({
      kind: 'edit_conflict',
      message: `The edit changes what revision${revisions.length === 1 ? '' : 's'} ${revisions.join(', ')} changed since: ${fields}`,
      conflicts: result.conflicts,
    });
  }
  if (result.kind === 'text_conflict') {
    throw refuseEdit({
      kind: 'text_conflict',
      message: `The edit changes only the text, and its changes meet those of revision${result.revisions.length === 1 ? '' : 's'} ${result.revisions.join(', ')}: copy them, reload the config and make them again`,
    });
  }
  if (result.kind === 'base_unavailable') {
    throw refuseEdit({
      kind: 'merge_out_of_reach',
      message: `The config ${prepared.task.configId} cannot be rebuilt as it was at base_revision, so this edit cannot be merged: reload the config and make the edit again`,
    });
  }
  if (result.kind === 'refused') {
    throw refuseEdit({ kind: 'operation_refused', refusal: result.refusal });
  }
  if (result.kind === 'too_large') {
    throw refuseEdit({
      kind: 'too_large',
      message: `The resulting config would be over ${result.limitBytes} bytes`,
    });
  }
  const { report } = result;
  if (prepared.lifecycle && !report.valid) {
    throw refuseEdit({
      kind: 'live_would_be_invalid',
      message: `The result would not be valid (${report.error_count} error${report.error_count === 1 ? '' : 's'}), and the live config must always be valid`,
      report,
    });
  }
  const { lifecycle, label, at, task } = prepared;
  return { ...result, lifecycle, label, at, resultId: task.resultId };
}

/** The config an edit applies to: `config_id`, else the live config. */
function editTarget(
  request: ConfigEditRequest,
  liveId: string | undefined,
  read: (id: string) => ConfigRecordRow | undefined,
): ConfigRecordRow {
  const id = request.config_id ?? liveId;
  const row = id === undefined ? undefined : read(id);
  if (!row) {
    const what = request.config_id ? `The config ${request.config_id}` : 'A live config';
    throw refuseEdit({
      kind: 'target_not_found',
      message: `${what} was not found in this account`,
    });
  }
  return row;
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
