/**
 * A computed edit written in one unit of work: the draft updated or created (or, for a
 * lifecycle step, a new published version made live), its history entry, and the answer.
 */
import type { ConfigEditRequest, ConfigEditResult, ConfigKind } from '../../contract/config-edit';
import type { ConfigSummary } from '../../contract/configs';
import type { AppliedEdit } from '../edit-work/edit-task';
import type { ConfigRecordRow, HistoryRecord, Principal } from '../store/records';
import type { ConfigTransaction } from '../store/store';
import { history, newRow, reportColumns, toSummary } from './config-rows';
import { requireApprovals } from './reviews-state';
import { addAbTestChanges, addConfigPublished } from './webhook-events';

export interface EditOutcome {
  readonly result: ConfigEditResult;
  readonly revision: number;
}

export interface ComputedEdit extends AppliedEdit {
  readonly lifecycle: boolean;
  /** The config the result is stored as: the same draft, or a new draft or published config. */
  readonly resultId: string;
  readonly label: string;
  readonly at: string;
}

/** Writes a computed edit in the unit of work `tx`. */
export function storeEdit(
  tx: ConfigTransaction,
  principal: Principal,
  request: ConfigEditRequest,
  target: ConfigRecordRow,
  computed: ComputedEdit,
): EditOutcome {
  const { resultId, label, at, yaml, report, appliedPaths } = computed;
  const entry = (action: HistoryRecord['action'], revision: number, summary: string | null) =>
    history(
      principal,
      resultId,
      action,
      at,
      revision,
      summary,
      // As applied: replaying the history rebuilds each revision, for later merges.
      computed.movedOperations ?? request.operations,
      appliedPaths,
      computed.textChanges,
    );
  const result = (
    kind: ConfigKind,
    created: boolean,
    row: Parameters<typeof toSummary>[0],
  ): EditOutcome => ({
    result: editResult(
      principal,
      computed,
      kind,
      created,
      target.id,
      toSummary(row, tx.liveId(), tx.policy()),
    ),
    revision: row.revision,
  });

  if (computed.lifecycle) {
    // A lifecycle step on a draft publishes it, so it needs the draft's approvals.
    if (target.kind === 'draft') requireApprovals(target, tx.policy());
    const row = newRow({
      id: resultId,
      kind: 'published',
      label,
      report,
      base: target.id,
      at,
      published: true,
    });
    tx.insert(row);
    tx.setLive(resultId, at);
    if (target.kind === 'draft') tx.close(target.id, 'published', at);
    tx.addHistory(entry('lifecycle', 1, label));
    addConfigPublished(tx, principal, { ...row, published_at: at }, 'lifecycle', at);
    addAbTestChanges(tx, principal, computed.abTestChanges, resultId, at);
    return result('published', true, row);
  }
  if (target.kind === 'draft') {
    const change = {
      ...reportColumns(report),
      yaml,
      revision: target.revision + 1,
      updated_at: at,
    };
    tx.update(target.id, change);
    tx.addHistory(entry('edit', change.revision, request.summary ?? null));
    return result('draft', false, { ...target, ...change });
  }
  const row = newRow({
    id: resultId,
    kind: 'draft',
    label,
    report,
    base: target.id,
    at,
    published: false,
  });
  tx.insert(row);
  tx.addHistory(entry('edit', 1, request.summary ?? null));
  return result('draft', true, row);
}

function editResult(
  principal: Principal,
  computed: ComputedEdit,
  kind: ConfigKind,
  created: boolean,
  baseId: string,
  config: ConfigSummary,
): ConfigEditResult {
  return {
    id: computed.resultId,
    account_id: principal.account.id,
    kind,
    created,
    base_config_id: baseId,
    applied_paths: computed.appliedPaths,
    applied_ranges: computed.appliedRanges,
    merged_revisions: [...computed.mergedRevisions],
    ...(computed.textRebased === undefined ? {} : { text_rebased: computed.textRebased }),
    config,
    validation: computed.report,
  };
}
