/**
 * The CPU-heavy part of `POST /config/edit` as plain data in, plain data out, so that it runs
 * in a worker thread (edit-pool.ts) and the service's event loop stays free. The caller
 * decides what to store; nothing here touches the database.
 */
import type { AppliedRange } from '../../contract/config-edit';
import { MAX_CONFIG_YAML_BYTES } from '../../contract/endpoints';
import type { Operation } from '../../contract/operations';
import type { ValidationReport, ValidationSource } from '../../contract/validation';
import { applyEdit } from '../../configs/edit';
import type { OperationRefusal } from '../../configs/operations/refusal';
import { parseConfig } from '../../configs/parse';
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

const fitsInAConfig = (text: string) => Buffer.byteLength(text) <= MAX_CONFIG_YAML_BYTES;

export function runEditTask(cache: DocumentCache, task: EditTask): EditTaskResult {
  const cached = cache.take(task.configId, task.text);
  if (!cached) cache.makeRoom(estimatedBytes(task.text));
  const config = cached ?? { parsed: parseConfig(task.text) };
  const result = applyEdit(config, task.operations, {
    now: task.now,
    source: task.source,
    textFits: fitsInAConfig,
  });
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
    cacheHit: cached !== undefined,
  };
}
