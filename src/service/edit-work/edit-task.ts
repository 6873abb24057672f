/**
 * The CPU-heavy part of `POST /config/edit` as plain data in, plain data out, so that it runs
 * in a worker thread (edit-pool.ts) and the service's event loop stays free: operations
 * applied to the parsed config, the text written, parsed again and validated. The caller
 * decides what to store; nothing here touches the database.
 */
import type { AppliedRange } from '../../contract/config-edit';
import { MAX_CONFIG_YAML_BYTES } from '../../contract/endpoints';
import type { Operation } from '../../contract/operations';
import type { ValidationReport, ValidationSource } from '../../contract/validation';
import { appliedRangesOf } from '../../configs/applied-ranges';
import { editBaseOf, parseEdited } from '../../configs/incremental-parse';
import { writeEdited } from '../../configs/incremental-stringify';
import { applyOperations } from '../../configs/operations/apply-operations';
import { EditChanges } from '../../configs/operations/edit-changes';
import type { OperationRefusal } from '../../configs/operations/refusal';
import { parseConfig } from '../../configs/parse';
import { validateEdited } from '../../configs/validation/validate-edited';
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
}

export type EditTaskResult =
  | {
      readonly kind: 'applied';
      readonly yaml: string;
      readonly report: ValidationReport;
      readonly appliedPaths: string[];
      readonly appliedRanges: AppliedRange[];
      /** Whether the config's parsed document was in the cache (else it was parsed). */
      readonly cacheHit: boolean;
    }
  | { readonly kind: 'refused'; readonly refusal: OperationRefusal }
  | { readonly kind: 'too_large'; readonly limitBytes: number };

export function runEditTask(cache: DocumentCache, task: EditTask): EditTaskResult {
  const cached = cache.take(task.configId, task.text);
  if (!cached) cache.makeRoom(estimatedBytes(task.text));
  const parsed = cached ?? parseConfig(task.text);
  const base = editBaseOf(parsed);
  const changes = new EditChanges();
  const applied = applyOperations(parsed.document, task.operations, { now: task.now, changes });
  if (!applied.ok) return { kind: 'refused', refusal: applied.refusal };
  const yaml = writeEdited(base, parsed.document, changes);
  if (Buffer.byteLength(yaml) > MAX_CONFIG_YAML_BYTES)
    return { kind: 'too_large', limitBytes: MAX_CONFIG_YAML_BYTES };
  // Only the changed items are parsed again when that gives what a whole parse would.
  const next = parseEdited(base, parsed.document, yaml, changes);
  const report = validateEdited(next, task.source);
  // Kept for the next edit of the result; if it is never stored, its text matches nothing.
  cache.put(task.resultId, next);
  return {
    kind: 'applied',
    yaml,
    report,
    appliedPaths: applied.appliedPaths,
    appliedRanges: appliedRangesOf(next, applied.appliedPaths, task.operations),
    cacheHit: cached !== undefined,
  };
}
