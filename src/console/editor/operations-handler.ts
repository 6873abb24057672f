/**
 * What the operations worker computes, as plain functions (the worker calls them; so does
 * the page where there are no workers, e.g. in tests).
 */
import {
  applyOperations,
  ChunkedConfigReader,
  configData,
  diffConfigData,
  editorTextToOperations,
  parseConfig,
  readConfigContents,
  stringifyConfig,
  type ConfigContents,
  type ConfigData,
  type EditorOperationsResult,
} from '../../configs';
import type { OperationsRequest, OperationsResults, ReapplyResult } from './operations-protocol';

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

/** A config's apps and tests; null when its text does not parse. */
export function readContents(session: OperationsSession, text: string): ConfigContents | null {
  // The live config and its drafts share most items: the chunked reader reads each once.
  const data = session.textData(text);
  return data.ok ? readConfigContents(data.data) : null;
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
    case 'prime':
      return primeSavedText(session, request.text);
    case 'contents':
      return readContents(session, request.text);
  }
}
