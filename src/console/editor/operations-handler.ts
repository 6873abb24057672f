/**
 * What the operations worker computes, as plain functions (the worker calls them; so does
 * the page where there are no workers, e.g. in tests).
 */
import { isMap, isSeq, type Document } from 'yaml';
import { operations as op } from '../../contract/operations';
import {
  applyOperations,
  ChunkedConfigReader,
  configData,
  deepEqual,
  diffConfigData,
  editorTextToOperations,
  isArrayIndexToken,
  parseConfig,
  parsePointer,
  readConfigContents,
  stringifyConfig,
  toPointer,
  type ConfigContents,
  type ConfigData,
  type EditorOperationsResult,
} from '../../configs';
import { deliveryViewOf, type LiveConfigStamp } from '../../configs/delivery-view';
import type { DeliveryView } from '../../contract/delivery';
import type {
  ChosenField,
  OperationsRequest,
  OperationsResults,
  ReapplyResult,
} from './operations-protocol';

/**
 * What one operations worker remembers between requests: texts as data, re-reading only the
 * items (apps, tests) that changed since the last texts (a save after a small edit of a large
 * config reads one app, not the whole text), and the saved text every diff is made against.
 * Texts in another shape are parsed whole.
 */
export class OperationsSession {
  private readonly reader = new ChunkedConfigReader();
  private saved: { readonly text: string; readonly data: ConfigData } | null = null;

  textData(text: string): ConfigData {
    const chunked = this.reader.dataOf(text);
    return chunked ? { ok: true, data: chunked.data } : configData(parseConfig(text));
  }

  savedData(text: string): ConfigData {
    if (this.saved?.text !== text) this.saved = { text, data: this.textData(text) };
    return this.saved.data;
  }
}

/** Parses the saved text ahead of the first diff against it. */
export function primeSavedText(session: OperationsSession, text: string): null {
  session.savedData(text);
  return null;
}

/**
 * `editorTextToOperations(baseText, editedText)`, with the saved text (the base) parsed once
 * rather than per call.
 */
export function diffEditorText(
  session: OperationsSession,
  baseText: string,
  editedText: string,
): EditorOperationsResult {
  const edited = session.textData(editedText);
  if (!edited.ok) return { status: 'syntax_error', issues: edited.issues };
  const base = session.savedData(baseText);
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

/** The lists whose items are known by their id rather than their position. */
const ID_LISTS: ReadonlySet<string> = new Set(['apps', 'ab_tests']);

function itemIdAt(document: Document, list: string, index: number): unknown {
  const seq = document.get(list, true);
  const item = isSeq(seq) ? seq.items[index] : undefined;
  return isMap(item) ? item.get('id') : undefined;
}

function indexOfId(document: Document, list: string, id: unknown): number {
  const seq = document.get(list, true);
  return isSeq(seq) ? seq.items.findIndex((item) => isMap(item) && item.get('id') === id) : -1;
}

/**
 * Where a conflict's path sits in `result`: an app or test is followed by its id, since the
 * person's edit may have moved it. The path names the item where it is in the newer text, or,
 * when it is gone from there, where it was in the text the edit was made on. null: gone.
 */
function relocated(path: string, older: Document, newer: Document, result: Document) {
  const [list, index, ...rest] = parsePointer(path);
  if (list === undefined || !ID_LISTS.has(list) || index === undefined) return path;
  if (!isArrayIndexToken(index)) return path;
  const olderId = itemIdAt(older, list, Number(index));
  const gone = olderId !== undefined && indexOfId(newer, list, olderId) < 0;
  const id = gone ? olderId : itemIdAt(newer, list, Number(index));
  if (typeof id !== 'string') return path;
  const at = indexOfId(result, list, id);
  return at < 0 ? null : toPointer([list, at, ...rest]);
}

function dataAt(data: unknown, path: string): unknown {
  let here = data;
  for (const token of parsePointer(path)) {
    if (Array.isArray(here)) here = isArrayIndexToken(token) ? here[Number(token)] : undefined;
    else if (here !== null && typeof here === 'object') {
      here = Object.hasOwn(here, token) ? (here as Record<string, unknown>)[token] : undefined;
    } else return undefined;
  }
  return here;
}

/**
 * After a 409 edit_conflict: the person's edit on the newer text, then each field both
 * changed set to the value chosen for it. Where the person chose the newer value, their
 * operation there may no longer apply (the item is gone, the id is taken) and is left out.
 */
export function resolveEdit(
  oldBaseText: string,
  editedText: string,
  newBaseText: string,
  fields: readonly ChosenField[],
): ReapplyResult {
  const edit = editorTextToOperations(oldBaseText, editedText);
  if (edit.status === 'syntax_error') return edit;
  const older = parseConfig(oldBaseText).document;
  const newer = parseConfig(newBaseText);
  if (newer.syntaxIssues.length > 0) {
    return { status: 'refused', message: 'The newer version of the config does not parse.' };
  }
  let mine = edit.status === 'changed' ? edit.operations : [];
  let result = newer.document.clone();
  if (!applyOperations(result, mine).ok) {
    // One at a time: those that still apply are kept.
    result = newer.document.clone();
    const kept = [];
    for (const operation of mine) {
      const trial = result.clone();
      const applied = applyOperations(trial, [operation]);
      if (applied.ok) {
        result = trial;
        kept.push(operation);
      } else if (!fields.some((field) => field.theirs)) {
        return { status: 'refused', message: applied.refusal.message };
      }
    }
    mine = kept;
  }
  const choices = fields.map((field) => ({
    field,
    at: relocated(field.path, older, newer.document, result),
  }));
  const data: unknown = result.toJS({ maxAliasCount: -1 });
  const settle = [];
  for (const { field, at } of choices) {
    if (at === null) {
      if (field.value === undefined) continue;
      return {
        status: 'refused',
        message: `${field.path} is gone from the newer version, so the value chosen for it has nowhere to go.`,
      };
    }
    const now = dataAt(data, at);
    if (field.value === undefined) {
      if (now !== undefined) settle.push(op.unset(at));
    } else if (now === undefined || !deepEqual(now, field.value)) {
      settle.push(op.set(at, field.value));
    }
  }
  const settled = applyOperations(result, settle);
  if (!settled.ok) return { status: 'refused', message: settled.refusal.message };
  const operations = [...mine, ...settle];
  if (operations.length === 0) return { status: 'unchanged' };
  return { status: 'applied', text: stringifyConfig(result), operations };
}

/** A config's apps and tests; null when its text does not parse. */
export function readContents(session: OperationsSession, text: string): ConfigContents | null {
  // The live config and its drafts share most items: the chunked reader reads each once.
  const data = session.textData(text);
  return data.ok ? readConfigContents(data.data) : null;
}

/** The view of one app of the live config, with the same builder as the delivery endpoints. */
export function readDeliveryView(
  session: OperationsSession,
  text: string,
  appId: string,
  config: LiveConfigStamp,
): DeliveryView | null {
  const data = session.textData(text);
  return data.ok ? (deliveryViewOf(data.data, appId, config) ?? null) : null;
}

export function handleOperationsRequest(
  session: OperationsSession,
  request: OperationsRequest,
): OperationsResults[keyof OperationsResults] {
  switch (request.kind) {
    case 'diff':
      return diffEditorText(session, request.baseText, request.editedText);
    case 'reapply':
      return reapplyEdit(request.oldBaseText, request.editedText, request.newBaseText);
    case 'resolve':
      return resolveEdit(
        request.oldBaseText,
        request.editedText,
        request.newBaseText,
        request.fields,
      );
    case 'prime':
      return primeSavedText(session, request.text);
    case 'contents':
      return readContents(session, request.text);
    case 'delivery-view':
      return readDeliveryView(session, request.text, request.appId, request.config);
  }
}
