/**
 * The CPU-heavy part of `POST /config/edit` as plain data in, plain data out, so that it runs
 * in a worker thread (edit-pool.ts) and the service's event loop stays free. The caller
 * decides what to store; nothing here touches the database.
 */
import type { Document } from 'yaml';
import type { AppliedRange } from '../../contract/config-edit';
import { MAX_CONFIG_YAML_BYTES } from '../../contract/endpoints';
import {
  actionKeyOf,
  isLifecycleAction,
  itemsOf,
  type LifecycleAction,
  type Operation,
  type TextChange,
} from '../../contract/operations';
import type { ValidationReport, ValidationSource } from '../../contract/validation';
import { applyEdit } from '../../configs/edit';
import { judgeMerge, type NewerEdit } from '../../configs/merge/merge-edits';
import { applyOperations } from '../../configs/operations/apply-operations';
import type { OperationRefusal } from '../../configs/operations/refusal';
import { configData, parseConfig, type ParsedConfig } from '../../configs/parse';
import { readConfigContents } from '../../configs/config-contents';
import { rebaseTextChanges, textChangesBetween, textEditOf } from '../../configs/text-edit';
import type { ValidationContext } from '../../configs/validation/validation-context';
import type { EditConflict } from '../../contract/problem';
import { estimatedBytes, type DocumentCache } from './document-cache';

export interface EditTask {
  /** The config edited, and its stored text. */
  readonly configId: string;
  readonly text: string;
  readonly operations: readonly Operation[];
  readonly now: Date;
  /** The config the result will be stored as (the same draft, or a new one), for the cache. */
  readonly resultId: string;
  readonly source: ValidationSource;
  /** What validation knows of the account (its metric ids): plain data, for the worker. */
  readonly validation?: ValidationContext;
  /** Present when the operations were made on an older revision of the config. */
  readonly merge?: MergeTask;
}

/**
 * What a merge is judged from. Older texts of a draft are not stored: its text at the base
 * revision is rebuilt, when the judgment needs it, from the text it was copied from and the
 * operations of its revisions up to the base.
 */
export interface MergeTask {
  readonly newer: readonly NewerEdit[];
  readonly copiedFrom: string | undefined;
  readonly earlier: readonly (readonly Operation[])[];
}

/** An edit applied: the saved text, its report, and what the answer and history say of it. */
export interface AppliedEdit {
  readonly yaml: string;
  readonly report: ValidationReport;
  readonly appliedPaths: string[];
  readonly appliedRanges: AppliedRange[];
  readonly mergedRevisions: readonly number[];
  /** The operations as applied, when a merge moved their positions or carried the typed text over (history keeps these). */
  readonly movedOperations?: readonly Operation[];
  /** How the edit changed the text, for carrying a later typed text over this edit. */
  readonly textChanges: readonly TextChange[];
  /** A merged edit's typed text: carried over (true), or written by the service (false). */
  readonly textRebased?: boolean;
  /** Each A/B test a lifecycle step named, in the request's order; [] for other edits. */
  readonly abTestChanges: readonly AbTestChange[];
}

/**
 * A test as a lifecycle step left it, what its `ab_test.changed` event says: read here, off
 * the main thread, so the unit of work storing the edit parses nothing.
 */
export interface AbTestChange {
  readonly action: LifecycleAction;
  readonly id: string;
  /** The test's app; a deleted test's from before the step. */
  readonly app: string | null;
  /** The status after the step, or `deleted`. */
  readonly status: string | null;
}

export type EditTaskResult =
  | (AppliedEdit & {
      readonly kind: 'applied';
      /** Whether the config's parsed document was in the cache (else it was parsed). */
      readonly cacheHit: boolean;
    })
  | { readonly kind: 'refused'; readonly refusal: OperationRefusal }
  | { readonly kind: 'too_large'; readonly limitBytes: number }
  | { readonly kind: 'conflict'; readonly conflicts: readonly EditConflict[] }
  /** A merged edit with nothing but its typed text, which cannot be carried over. */
  | { readonly kind: 'text_conflict'; readonly revisions: readonly number[] }
  | { readonly kind: 'base_unavailable' };

const fitsInAConfig = (text: string) => Buffer.byteLength(text) <= MAX_CONFIG_YAML_BYTES;

export function runEditTask(cache: DocumentCache, task: EditTask): EditTaskResult {
  const cached = cache.take(task.configId, task.text);
  if (!cached) cache.makeRoom(estimatedBytes(task.text));
  const config = cached ?? { parsed: parseConfig(task.text) };
  const savedText = config.parsed.text;
  let operations = task.operations;
  let mergedRevisions: readonly number[] = [];
  let textRebased: boolean | undefined;
  if (task.merge) {
    const merge = task.merge;
    const judgment = judgeMerge({
      mine: task.operations,
      newer: merge.newer,
      base: () => rebuiltBase(merge),
      current: () => config.parsed.document,
    });
    if (judgment.kind !== 'merge') {
      // Nothing changed the current document: it stays ready for the next edit.
      cache.put(task.configId, config);
      return judgment;
    }
    // From here on the edit is one made on the current config: its operations as the
    // judgment rebased them (list positions moved to where the same items sit now).
    operations = judgment.operations;
    mergedRevisions = judgment.mergedRevisions;
    const carried = carriedText(operations, merge.newer);
    if (carried) ({ operations, textRebased } = carried);
    if (carried && operations.length === 0) {
      cache.put(task.configId, config);
      return { kind: 'text_conflict', revisions: mergedRevisions };
    }
  }
  const options = {
    now: task.now,
    source: task.source,
    textFits: fitsInAConfig,
    ...(task.validation ? { validation: task.validation } : {}),
  };
  // Read before the edit changes the document in place.
  const testsBefore = lifecycleSteps(operations).length > 0 ? abTestsOf(config.parsed) : [];
  let result = applyEdit(config, operations, options);
  if (textRebased && result.kind === 'refused' && result.refusal.code === 'text_mismatch') {
    // Carried over, the typed text no longer says what the merged operations do: the
    // service writes the text. The failed attempt changed the document, so parse again.
    operations = withoutTypedText(operations);
    textRebased = false;
    if (operations.length === 0) return { kind: 'text_conflict', revisions: mergedRevisions };
    result = applyEdit({ parsed: parseConfig(task.text) }, operations, options);
  }
  if (result.kind === 'refused') return result;
  if (result.kind === 'too_large') return { kind: 'too_large', limitBytes: MAX_CONFIG_YAML_BYTES };
  // Kept for the next edit of the result; if it is never stored, its text matches nothing.
  cache.put(task.resultId, result.edited);
  return {
    kind: 'applied',
    yaml: result.text,
    report: result.report,
    appliedPaths: result.appliedPaths,
    appliedRanges: result.appliedRanges,
    mergedRevisions,
    ...(operations === task.operations ? {} : { movedOperations: operations }),
    textChanges: textChangesBetween(savedText, result.text),
    ...(textRebased === undefined ? {} : { textRebased }),
    abTestChanges: abTestChangesOf(operations, testsBefore, result.edited.parsed),
    cacheHit: cached !== undefined,
  };
}

function lifecycleSteps(operations: readonly Operation[]) {
  return operations.flatMap((operation) => {
    const action = actionKeyOf(operation);
    if (!isLifecycleAction(action)) return [];
    return itemsOf(operation).map((item) => ({ action, id: String(item.id) }));
  });
}

function abTestsOf(parsed: ParsedConfig) {
  const data = configData(parsed);
  return readConfigContents(data.ok ? data.data : null).abTests;
}

function abTestChangesOf(
  operations: readonly Operation[],
  before: ReturnType<typeof abTestsOf>,
  edited: ParsedConfig,
): AbTestChange[] {
  const steps = lifecycleSteps(operations);
  if (steps.length === 0) return [];
  const after = abTestsOf(edited);
  return steps.map(({ action, id }) => {
    const test = after.find((each) => each.id === id);
    const app = test?.app ?? before.find((each) => each.id === id)?.app ?? null;
    return { action, id, app, status: test ? test.status : 'deleted' };
  });
}

function withoutTypedText(operations: readonly Operation[]): Operation[] {
  return operations.filter((operation) => actionKeyOf(operation) !== 'edit_text');
}

/**
 * A merged edit's `edit_text`, its changes (made on the text at the base revision) carried
 * over the newer edits' changes to the text; dropped, so that the service writes the text,
 * when they cannot be. Undefined when the edit has no `edit_text`.
 */
function carriedText(
  operations: readonly Operation[],
  newer: readonly NewerEdit[],
): { operations: Operation[]; textRebased: boolean } | undefined {
  const typed = textEditOf(operations);
  if (!typed) return undefined;
  const rebased = rebaseTextChanges(
    typed.changes,
    newer.map((edit) => edit.textChanges),
  );
  if (!rebased) return { operations: withoutTypedText(operations), textRebased: false };
  const carried = [...operations];
  carried[typed.operationIndex] = { edit_text: [{ changes: rebased }] };
  return { operations: carried, textRebased: true };
}

/** The config at the base revision: the text it was copied from, with its edits replayed. */
function rebuiltBase(merge: MergeTask): Document | undefined {
  if (merge.copiedFrom === undefined) return undefined;
  const { document } = parseConfig(merge.copiedFrom);
  for (const operations of merge.earlier) {
    if (!applyOperations(document, operations).ok) return undefined;
  }
  return document;
}
