/**
 * What the operations worker computes, as plain functions (the worker calls them; so does
 * the page where there are no workers, e.g. in tests).
 */
import { isMap, isNode } from 'yaml';
import { actionKeyOf, itemsOf, type Operation } from '../../contract/operations';
import {
  applyOperations,
  ChunkedConfigReader,
  configData,
  diffConfigData,
  editorTextToOperations,
  parseConfig,
  parsePointer,
  readConfigContents,
  stringifyConfig,
  type ConfigContents,
  type ConfigData,
  type EditorOperationsResult,
  type ParsedConfig,
} from '../../configs';
import type { OffsetRange } from './editor-types';
import type { OperationsRequest, OperationsResults, ReapplyResult } from './operations-protocol';

/**
 * Texts as data, re-reading only the items (apps, tests) that changed since the last texts:
 * a save after a small edit of a 10,000-app config reads one app, not 2 MB (quality.md:
 * 100 ms). Texts in another shape are parsed whole.
 */
const reader = new ChunkedConfigReader();

function textData(text: string): ConfigData {
  const chunked = reader.dataOf(text);
  return chunked ? { ok: true, data: chunked.data } : configData(parseConfig(text));
}

/**
 * The saved text: every preview and save of a page diffs against its data, and the applied
 * paths of a save are found in its parsed document (parsed only when asked: a whole parse
 * is most of the cost of a step).
 */
let saved: { readonly text: string; parsed?: ParsedConfig; data?: ConfigData } | null = null;

function savedEntry(text: string): NonNullable<typeof saved> {
  if (saved?.text !== text) saved = { text };
  return saved;
}

function savedParse(text: string): ParsedConfig {
  const entry = savedEntry(text);
  entry.parsed ??= parseConfig(text);
  return entry.parsed;
}

function savedData(text: string): ConfigData {
  const entry = savedEntry(text);
  entry.data ??= textData(text);
  return entry.data;
}

/** Parses the saved text ahead of the first diff against it. */
export function primeSavedText(text: string): null {
  savedData(text);
  return null;
}

/**
 * `editorTextToOperations(baseText, editedText)`, with the saved text (the base) parsed once
 * rather than per call.
 */
export function diffEditorText(baseText: string, editedText: string): EditorOperationsResult {
  const edited = textData(editedText);
  if (!edited.ok) return { status: 'syntax_error', issues: edited.issues };
  const base = savedData(baseText);
  // A saved text that does not parse cannot happen; if it does, the reference function says.
  if (!base.ok) return editorTextToOperations(baseText, editedText);
  const operations = diffConfigData(base.data, edited.data);
  return operations.length === 0 ? { status: 'unchanged' } : { status: 'changed', operations };
}

/** The person's edit, rebuilt against the newer text of the config (after a 412). */
export function reapplyEdit(
  oldBaseText: string,
  editedText: string,
  newBaseText: string,
): ReapplyResult {
  const edit = editorTextToOperations(oldBaseText, editedText);
  if (edit.status !== 'changed') return edit;
  const newer = parseConfig(newBaseText);
  if (newer.syntaxIssues.length > 0) {
    return { status: 'refused', message: 'The newer version of the config does not parse.' };
  }
  const applied = applyOperations(newer.document, edit.operations);
  if (!applied.ok) return { status: 'refused', message: applied.refusal.message };
  return { status: 'applied', text: stringifyConfig(newer.document), operations: edit.operations };
}

function stringField(item: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = item[key];
  return typeof value === 'string' ? value : undefined;
}

const APP_ITEM = /^\/apps\/\d+$/;

/**
 * The spans of `text` that the applied paths of a save name. Paths of what the save
 * removed name nothing any more (an `unset` path, or the index a deleted app had, where
 * the next app now sits): they are left out.
 */
export function locateAppliedPaths(
  text: string,
  paths: readonly string[],
  operations: readonly Operation[],
): OffsetRange[] {
  const unsetPaths = new Set<string>();
  const keptApps = new Set<string>();
  let deletedApps = false;
  for (const operation of operations) {
    const action = actionKeyOf(operation);
    for (const item of itemsOf(operation)) {
      if (action === 'unset') unsetPaths.add(stringField(item, 'path') ?? '');
      if (action === 'delete_app') deletedApps = true;
      if (action === 'create_app' || action === 'update_app') {
        const id = stringField(item, 'id');
        if (id !== undefined) keptApps.add(id);
      }
    }
  }

  // The saved text of a save is the next edit's base: parse it where the diff finds it.
  const parsed = savedParse(text);
  if (parsed.syntaxIssues.length > 0) return [];
  const ranges: OffsetRange[] = [];
  for (const path of paths) {
    if (path === '' || unsetPaths.has(path)) continue;
    let segments: string[];
    try {
      segments = parsePointer(path);
    } catch {
      continue;
    }
    const node: unknown = parsed.document.getIn(segments, true);
    if (!isNode(node) || !node.range) continue;
    if (deletedApps && APP_ITEM.test(path)) {
      const id = isMap(node) ? node.get('id') : undefined;
      if (typeof id !== 'string' || !keptApps.has(id)) continue;
    }
    ranges.push({ start: node.range[0], end: node.range[1] });
  }
  return ranges;
}

/** A config's apps and tests; null when its text does not parse. */
export function readContents(text: string): ConfigContents | null {
  // The live config and its drafts share most items: the chunked reader reads each once.
  const data = textData(text);
  return data.ok ? readConfigContents(data.data) : null;
}

export function handleOperationsRequest(
  request: OperationsRequest,
): OperationsResults[keyof OperationsResults] {
  switch (request.kind) {
    case 'diff':
      return diffEditorText(request.baseText, request.editedText);
    case 'reapply':
      return reapplyEdit(request.oldBaseText, request.editedText, request.newBaseText);
    case 'locate':
      return locateAppliedPaths(request.text, request.paths, request.operations);
    case 'prime':
      return primeSavedText(request.text);
    case 'contents':
      return readContents(request.text);
  }
}
