/**
 * The config's YAML editor (Monaco through @monaco-editor/react), loaded with React.lazy on
 * the editor route only. It gives the page a ConfigEditorHandle; the page never touches
 * Monaco itself.
 */
import { Editor } from '@monaco-editor/react';
import type { languages } from 'monaco-editor/esm/vs/editor/edcore.main.js';
import { useEffect, useMemo, useRef } from 'react';
import type { ValidationIssue } from '../../../contract/validation';
import { Spinner } from '../../components/spinner';
import {
  SERVER_MARKER_OWNER,
  type ConfigEditorHandle,
  type ConfigEditorProps,
  type EditorLens,
  type OffsetRange,
  type TextRange,
} from '../editor-types';
import { instantMarkersToKeep, issueToMarker, lineRange, type LineSpan } from '../markers';
import { EDITOR_MARKS, markEditorStep } from '../ready-marks';
import { monaco, setConfigSchema, themeOf, type Monaco } from './monaco-setup';

type CodeEditor = ReturnType<Monaco['editor']['create']>;
type TextModel = NonNullable<ReturnType<CodeEditor['getModel']>>;
type DecorationsCollection = ReturnType<CodeEditor['createDecorationsCollection']>;

/** monaco-yaml's marker owner: its instant checks as the person types. */
const INSTANT_MARKER_OWNER = 'yaml';

const EDITOR_OPTIONS = {
  ariaLabel: 'Config YAML',
  // A textarea rather than the EditContext API: what assistive technology and test
  // tools know best.
  editContext: false,
  automaticLayout: true,
  fixedOverflowWidgets: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  tabSize: 2,
  insertSpaces: true,
  detectIndentation: false,
  renderValidationDecorations: 'on',
  fontSize: 14,
  quickSuggestions: { other: true, comments: false, strings: true },
  // On a 10,000-app config, sticky scroll (document symbols) and language-server folding
  // send the whole outline back from monaco-yaml's worker after every change, and reading
  // it stalls typing: fold by indentation (computed here, incrementally) instead.
  stickyScroll: { enabled: false },
  foldingStrategy: 'indentation',
  // Bracket pair colouring reparses the bracket tree of the whole text as it changes; YAML
  // configs hardly use brackets.
  bracketPairColorization: { enabled: false },
} as const;

/** Keeps the last text's common start and end; returns the one edit between them. */
function smallestEdit(
  model: TextModel,
  next: string,
): { range: InstanceType<Monaco['Range']>; text: string } | null {
  const current = model.getValue();
  if (current === next) return null;
  let prefix = 0;
  const shorter = Math.min(current.length, next.length);
  while (prefix < shorter && current.charCodeAt(prefix) === next.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    current.charCodeAt(current.length - 1 - suffix) === next.charCodeAt(next.length - 1 - suffix)
  ) {
    suffix++;
  }
  const start = model.getPositionAt(prefix);
  const end = model.getPositionAt(current.length - suffix);
  return {
    range: monaco.Range.fromPositions(start, end),
    text: next.slice(prefix, next.length - suffix),
  };
}

function severityOf(severity: 'error' | 'warning') {
  return severity === 'warning' ? monaco.MarkerSeverity.Warning : monaco.MarkerSeverity.Error;
}

/** Lines whose spans touch or overlap become one span. */
function mergeSpans(spans: LineSpan[]): LineSpan[] {
  const sorted = [...spans].sort((a, b) => a.startLineNumber - b.startLineNumber);
  const merged: LineSpan[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span.startLineNumber <= last.endLineNumber + 1) {
      last.endLineNumber = Math.max(last.endLineNumber, span.endLineNumber);
    } else merged.push({ ...span });
  }
  return merged;
}

/**
 * Keeps monaco-yaml's markers apart from the server's: the lines edited since the server's
 * report are tracked, and each time monaco-yaml sets its markers, those the rule in
 * `instantMarkersToKeep` drops are taken out (setting the kept ones fires no further change).
 */
function keepInstantChecksApart(
  editor: CodeEditor,
  model: TextModel,
  serverRanges: DecorationsCollection,
): { judged: () => void } {
  const edited = editor.createDecorationsCollection();
  const editedOptions = {
    description: 'provisioning-edited-since-report',
    stickiness: monaco.editor.TrackedRangeStickiness.AlwaysGrowsWhenTypingAtEdges,
  };
  const setEdited = (spans: LineSpan[]) =>
    edited.set(
      mergeSpans(spans).map((span) => ({
        range: new monaco.Range(
          span.startLineNumber,
          1,
          span.endLineNumber,
          model.getLineMaxColumn(span.endLineNumber),
        ),
        options: editedOptions,
      })),
    );

  const refilter = () => {
    const instant = monaco.editor.getModelMarkers({
      owner: INSTANT_MARKER_OWNER,
      resource: model.uri,
    });
    const kept = instantMarkersToKeep(instant, serverRanges.getRanges(), edited.getRanges());
    if (kept.length === instant.length) return;
    monaco.editor.setModelMarkers(
      model,
      INSTANT_MARKER_OWNER,
      kept.map(({ owner: _owner, resource: _resource, ...data }) => data),
    );
  };

  const onContent = model.onDidChangeContent((event) => {
    // Offsets are of the text before the edit: shift each change by those before it.
    let shift = 0;
    const spans: LineSpan[] = [...edited.getRanges()];
    for (const change of [...event.changes].sort((a, b) => a.rangeOffset - b.rangeOffset)) {
      const start = model.getPositionAt(change.rangeOffset + shift);
      const end = model.getPositionAt(change.rangeOffset + shift + change.text.length);
      spans.push({ startLineNumber: start.lineNumber, endLineNumber: end.lineNumber });
      shift += change.text.length - change.rangeLength;
    }
    setEdited(spans);
  });
  const onMarkers = monaco.editor.onDidChangeMarkers((uris) => {
    if (uris.some((uri) => uri.toString() === model.uri.toString())) refilter();
  });
  model.onWillDispose(() => {
    onContent.dispose();
    onMarkers.dispose();
  });
  return {
    judged() {
      edited.clear();
      refilter();
    },
  };
}

function createHandle(
  editor: CodeEditor,
  model: TextModel,
  cleanVersion: { current: number },
  emitDirty: () => void,
): ConfigEditorHandle {
  // Follow each issue's range through later edits, so choosing it selects where it is now.
  const issueRanges = editor.createDecorationsCollection();
  const highlights = editor.createDecorationsCollection();
  const lineNotes = editor.createDecorationsCollection();
  const instantChecks = keepInstantChecksApart(editor, model, issueRanges);
  let highlightTimer: number | undefined;

  const toRange = (range: TextRange) =>
    new monaco.Range(
      range.startLineNumber,
      range.startColumn,
      range.endLineNumber,
      range.endColumn,
    );

  return {
    getText: () => model.getValue(),
    replaceText(text) {
      const edit = smallestEdit(model, text);
      if (!edit) return;
      // On the model, not the editor: it applies even while the editor is read-only, and
      // the cursors follow the edit instead of being reset.
      model.pushStackElement();
      model.pushEditOperations(editor.getSelections(), [edit], () => null);
      model.pushStackElement();
      emitDirty();
    },
    markClean() {
      cleanVersion.current = model.getAlternativeVersionId();
      emitDirty();
    },
    setServerIssues(issues: readonly ValidationIssue[]) {
      const markers = issues.map((issue) => issueToMarker(model, issue));
      monaco.editor.setModelMarkers(
        model,
        SERVER_MARKER_OWNER,
        markers.map((marker) => ({ ...marker, severity: severityOf(marker.severity) })),
      );
      issueRanges.set(
        markers.map((marker) => ({
          range: toRange(marker),
          options: {
            description: 'provisioning-issue',
            stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
          },
        })),
      );
      // The server has judged this text: its markers are the truth for it.
      instantChecks.judged();
    },
    revealIssue(index) {
      const range = issueRanges.getRange(index);
      if (!range) return;
      editor.setSelection(range);
      editor.revealRangeInCenterIfOutsideViewport(range);
      editor.focus();
    },
    selectIssue(issue) {
      const range = toRange(issueToMarker(model, issue));
      editor.setSelection(range);
      editor.revealRangeInCenterIfOutsideViewport(range);
      editor.focus();
    },
    highlight(ranges: readonly OffsetRange[], durationMs) {
      window.clearTimeout(highlightTimer);
      highlights.set(
        ranges.map((range) => ({
          range: toRange(lineRange(model, range)),
          options: {
            description: 'provisioning-applied-path',
            isWholeLine: true,
            className: 'applied-path-highlight',
          },
        })),
      );
      highlightTimer = window.setTimeout(() => highlights.clear(), durationMs);
    },
    setLineNotes(notes) {
      // One mark per line, its notes together in the hover; lines past the end are left out.
      const byLine = new Map<number, string[]>();
      for (const note of notes) {
        if (note.line < 1 || note.line > model.getLineCount()) continue;
        byLine.set(note.line, [...(byLine.get(note.line) ?? []), note.text]);
      }
      lineNotes.set(
        [...byLine].map(([line, texts]) => ({
          range: new monaco.Range(line, 1, line, 1),
          options: {
            description: 'provisioning-line-note',
            isWholeLine: true,
            linesDecorationsClassName: 'line-note-mark',
            className: 'line-note-line',
            hoverMessage: texts.map((value) => ({ value, isTrusted: false, supportHtml: false })),
            stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
          },
        })),
      );
    },
    revealLine(line) {
      const lineNumber = Math.min(Math.max(1, line), model.getLineCount());
      editor.setPosition({ lineNumber, column: 1 });
      editor.revealLineInCenterIfOutsideViewport(lineNumber);
      editor.focus();
    },
    focus: () => editor.focus(),
    saveViewState: () => editor.saveViewState(),
    restoreViewState(state) {
      if (state && typeof state === 'object') {
        editor.restoreViewState(state as Parameters<CodeEditor['restoreViewState']>[0]);
      }
    },
  };
}

const NO_LENSES: readonly EditorLens[] = [];
let lensCommandCount = 0;

/**
 * Shows `lenses.current` as CodeLenses of this model only (other models get none);
 * `refresh` after they change. Choosing one runs a command of this editor's own, which
 * calls `onLens` with the lens's id.
 */
function showLenses(
  model: TextModel,
  lenses: { readonly current: readonly EditorLens[] },
  onLens: (id: string) => void,
): { refresh(): void; dispose(): void } {
  lensCommandCount += 1;
  const commandId = `provisioning.codeLens.${lensCommandCount}`;
  const command = monaco.editor.registerCommand(commandId, (_accessor: unknown, id: unknown) => {
    if (typeof id === 'string') onLens(id);
  });
  const changed = new monaco.Emitter<languages.CodeLensProvider>();
  const provider: languages.CodeLensProvider = {
    onDidChange: changed.event,
    provideCodeLenses: (target) => ({
      lenses:
        target !== model
          ? []
          : lenses.current
              .filter((lens) => lens.line >= 1 && lens.line <= model.getLineCount())
              .map((lens) => ({
                range: new monaco.Range(lens.line, 1, lens.line, 1),
                id: lens.id,
                command: {
                  id: commandId,
                  title: lens.title,
                  ...(lens.tooltip === undefined ? {} : { tooltip: lens.tooltip }),
                  arguments: [lens.id],
                },
              })),
    }),
  };
  const registration = monaco.languages.registerCodeLensProvider('yaml', provider);
  return {
    refresh: () => changed.fire(provider),
    dispose() {
      registration.dispose();
      command.dispose();
      changed.dispose();
    },
  };
}

/** Diff editors showing `model` let go of it (it is about to be disposed). */
function releaseFromDiffs(model: TextModel): void {
  for (const diff of monaco.editor.getDiffEditors()) {
    if (diff.getModel()?.modified === model) diff.setModel(null);
  }
}

export default function ConfigEditor({
  modelPath,
  initialText,
  readOnly,
  dark,
  schema,
  onReady,
  onDirtyChange,
  onChange,
  lenses = NO_LENSES,
  onLens,
}: ConfigEditorProps) {
  const callbacks = useRef({ onReady, onDirtyChange, onChange, onLens });
  useEffect(() => {
    callbacks.current = { onReady, onDirtyChange, onChange, onLens };
  });
  const shownLenses = useRef(lenses);
  const lensDisplay = useRef<{ refresh(): void } | null>(null);
  useEffect(() => {
    shownLenses.current = lenses;
    lensDisplay.current?.refresh();
  }, [lenses]);

  useEffect(() => setConfigSchema(schema), [schema]);
  // A new options object makes the editor update its options: only when they change.
  const options = useMemo(() => ({ ...EDITOR_OPTIONS, readOnly }), [readOnly]);

  return (
    <Editor
      path={modelPath}
      defaultValue={initialText}
      defaultLanguage="yaml"
      theme={themeOf(dark)}
      loading={<Spinner label="Loading the editor…" />}
      options={options}
      onMount={(editor) => {
        markEditorStep(EDITOR_MARKS.editorCreated);
        const model = editor.getModel();
        if (!model) return;
        // A diff of this model (Show changes) must let go of it before it is disposed.
        model.onWillDispose(() => releaseFromDiffs(model));
        // Offsets in the report count `\n` line ends; so must the model's.
        model.setEOL(monaco.editor.EndOfLineSequence.LF);
        const cleanVersion = { current: model.getAlternativeVersionId() };
        let dirty = false;
        const emitDirty = () => {
          const next = model.getAlternativeVersionId() !== cleanVersion.current;
          if (next === dirty) return;
          dirty = next;
          callbacks.current.onDirtyChange(next);
        };
        model.onDidChangeContent(() => {
          emitDirty();
          callbacks.current.onChange?.();
        });
        // The lenses live as long as this editor: @monaco-editor/react disposes it on unmount.
        const display = showLenses(model, shownLenses, (id) => callbacks.current.onLens?.(id));
        lensDisplay.current = display;
        editor.onDidDispose(() => {
          display.dispose();
          if (lensDisplay.current === display) lensDisplay.current = null;
        });
        callbacks.current.onReady(createHandle(editor, model, cleanVersion, emitDirty));
      }}
    />
  );
}
