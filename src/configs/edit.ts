/**
 * An edit of a config as one value: operations applied to the parsed config, its text
 * written (or taken from the edit, and checked), parsed again and validated, each step from
 * what the one before returned.
 */
import type { Document } from 'yaml';
import type { AppliedRange } from '../contract/config-edit';
import type { Operation } from '../contract/operations';
import type { ValidationIssue, ValidationReport, ValidationSource } from '../contract/validation';
import { appliedRangesOf } from './applied-ranges';
import { firstDifference, isPlainObject } from './data';
import {
  editBaseOf,
  parseEdited,
  parseIncrementally,
  type EditBase,
  type EditedParse,
} from './incremental-parse';
import { writeEdited, type WrittenText } from './incremental-stringify';
import { applyOperations } from './operations/apply-operations';
import { EditChanges } from './operations/edit-changes';
import type { OperationRefusal } from './operations/refusal';
import { toPointer } from './json-pointer';
import { configData, parseConfig, type ParsedConfig } from './parse';
import { applyTextChanges, textEditOf, textRefusal, type TextEdit } from './text-edit';
import { validateEdited, type ItemFindingsByNode } from './validation/validate-edited';
import type { ValidationContext } from './validation/validation-context';

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
  /** What validation knows of the account (its metric ids); absent, those rules are skipped. */
  readonly validation?: ValidationContext;
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
 * With an `edit_text` operation the text is the one it makes of the saved text, refused
 * unless it reads as exactly the data the other operations made; else the text is written.
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
  const textEdit = textEditOf(operations);
  let next: EditedParse;
  let written: WrittenText | undefined;
  if (textEdit) {
    const typed = parseTypedText(base, parsed, textEdit, changes, options);
    if (typed.kind !== 'parsed') return typed;
    next = typed.next;
  } else {
    const writing = writeEdited(base?.write, parsed.document, changes);
    if (options.textFits && !options.textFits(writing.text)) return { kind: 'too_large' };
    next = parseEdited(base, parsed.document, writing.text, changes);
    written = writing.written;
  }
  const previous = next.reusedItemsUnchanged ? config.findings : undefined;
  const validation = validateEdited(next.parsed, options.source, previous, options.validation);
  return {
    kind: 'applied',
    text: next.parsed.text,
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

/**
 * The parsed text an `edit_text` makes of the saved text, once it is known to hold exactly
 * the data the operations made of `parsed.document` (changed in place, and taken over).
 */
function parseTypedText(
  base: EditBase | undefined,
  parsed: ParsedConfig,
  edit: TextEdit,
  changes: EditChanges,
  options: EditOptions,
): { readonly kind: 'parsed'; readonly next: EditedParse } | Exclude<EditResult, AppliedEdit> {
  const typed = applyTextChanges(parsed.text, edit);
  if (!typed.ok) return { kind: 'refused', refusal: typed.refusal };
  if (options.textFits && !options.textFits(typed.text)) return { kind: 'too_large' };
  const meant = configData({ ...parsed, syntaxIssues: [] });
  // Only a parse that reused nothing the operations changed reads the typed text alone.
  const incremental = base && parseIncrementally(base, parsed.document, typed.text, changes);
  const next = incremental?.reusedItemsUnchanged
    ? incremental
    : { parsed: parseConfig(typed.text), reusedItemsUnchanged: false };
  const said = configData(next.parsed);
  const mismatch = !meant.ok
    ? 'the operations leave a config that cannot be read as data'
    : !said.ok
      ? `the text cannot be read: ${describeIssue(said.issues[0])}`
      : describeDifference(meant.data, said.data);
  if (mismatch === undefined) return { kind: 'parsed', next };
  return {
    kind: 'refused',
    refusal: textRefusal(edit, undefined, 'conflict', 'text_mismatch', mismatch),
  };
}

function describeIssue(issue: ValidationIssue | undefined): string {
  return issue ? `${issue.message} (line ${issue.line}, column ${issue.column})` : 'no data';
}

/** Where the typed text says something else than the operations, in words; undefined if nowhere. */
function describeDifference(meant: unknown, said: unknown): string | undefined {
  const path = firstDifference(meant, said);
  if (!path) return undefined;
  const show = (data: unknown) => {
    const value = valueAt(data, path);
    if (value === undefined) return 'nothing';
    const json = JSON.stringify(value);
    return json.length > 80 ? `${json.slice(0, 77)}...` : json;
  };
  return `the text does not say what the operations do: at ${toPointer(path) || 'the top'} it has ${show(said)} where the operations make ${show(meant)}`;
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let value = data;
  for (const segment of path) {
    if (Array.isArray(value) && typeof segment === 'number') value = value[segment];
    else if (isPlainObject(value) && Object.hasOwn(value, segment)) value = value[segment];
    else return undefined;
  }
  return value;
}
