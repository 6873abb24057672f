/**
 * An edit of a config as one value: operations applied to the parsed config, its text
 * written, parsed again and validated, each step from what the one before returned.
 */
import type { Document } from 'yaml';
import type { AppliedRange } from '../contract/config-edit';
import type { Operation } from '../contract/operations';
import type { ValidationReport, ValidationSource } from '../contract/validation';
import { appliedRangesOf } from './applied-ranges';
import { editBaseOf, parseEdited } from './incremental-parse';
import { writeEdited, type WrittenText } from './incremental-stringify';
import { applyOperations } from './operations/apply-operations';
import { EditChanges } from './operations/edit-changes';
import type { OperationRefusal } from './operations/refusal';
import type { ParsedConfig } from './parse';
import { validateEdited, type ItemFindingsByNode } from './validation/validate-edited';

/**
 * A parsed config, with what its last edit learned that lets the next one skip work: the
 * text written for it and what validation found in its list items. A config parsed from
 * stored text has neither, and its first edit writes and validates it whole.
 */
export interface EditableConfig {
  readonly parsed: ParsedConfig;
  readonly written?: WrittenText;
  readonly findings?: ItemFindingsByNode;
}

export interface EditOptions {
  /** The clock for started_at / ended_at. */
  readonly now: Date;
  /** What the report names as validated. */
  readonly source: ValidationSource;
  /** Whether the written text may be kept (a size limit), asked before it is parsed again. */
  readonly textFits?: (text: string) => boolean;
}

export interface AppliedEdit {
  readonly kind: 'applied';
  readonly text: string;
  readonly document: Document.Parsed;
  readonly report: ValidationReport;
  /** What the operations changed, by node. */
  readonly changes: EditChanges;
  readonly appliedPaths: string[];
  /** Where the applied paths that still name a node sit in `text`. */
  readonly appliedRanges: AppliedRange[];
  /** The edited config, for the next edit of its text. */
  readonly edited: EditableConfig;
  /** How many list items' findings validation took again (for tests and benches). */
  readonly findingsKept: number;
}

export type EditResult =
  | AppliedEdit
  | { readonly kind: 'refused'; readonly refusal: OperationRefusal }
  | { readonly kind: 'too_large' };

/**
 * Applies `operations` to `config`. Its document is changed in place, whatever the result:
 * after a refusal it is part-way, and only `edited` of an applied edit may be edited again.
 */
export function applyEdit(
  config: EditableConfig,
  operations: readonly Operation[],
  options: EditOptions,
): EditResult {
  const { parsed } = config;
  const base = editBaseOf(parsed, config.written);
  const changes = new EditChanges();
  const applied = applyOperations(parsed.document, operations, { now: options.now, changes });
  if (!applied.ok) return { kind: 'refused', refusal: applied.refusal };
  const { text, written } = writeEdited(base?.write, parsed.document, changes);
  if (options.textFits && !options.textFits(text)) return { kind: 'too_large' };
  const next = parseEdited(base, parsed.document, text, changes);
  const previous = next.reusedItemsUnchanged ? config.findings : undefined;
  const validation = validateEdited(next.parsed, options.source, previous);
  return {
    kind: 'applied',
    text,
    document: next.parsed.document,
    report: validation.report,
    changes,
    appliedPaths: applied.appliedPaths,
    appliedRanges: appliedRangesOf(next.parsed, applied.appliedPaths, operations),
    edited: {
      parsed: next.parsed,
      ...(written ? { written } : {}),
      ...(validation.findings ? { findings: validation.findings } : {}),
    },
    findingsKept: validation.kept,
  };
}
