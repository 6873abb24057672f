/**
 * A stand-in for the Monaco editor in component tests (Monaco does not run in jsdom): a
 * textarea named "Config YAML" behind the same handle, and its CodeLenses as buttons after it
 * (named by their title, with their line). What the page asks of the editor is recorded in
 * `fakeEditor` for the tests to check.
 */
import { useEffect, useRef } from 'react';
import type { ValidationIssue } from '../../../contract/validation';
import type {
  ConfigEditorHandle,
  ConfigEditorProps,
  DiffViewProps,
  EditorLens,
  EditorMarker,
  LineNote,
  OffsetRange,
} from '../editor-types';
import { issueToMarker, textPositions } from '../markers';

export const fakeEditor: {
  markers: EditorMarker[];
  highlights: OffsetRange[];
  revealed: number[];
  /** The issues chosen by their position (syntax errors), in order. */
  selected: ValidationIssue[];
  readOnly: boolean;
  lineNotes: LineNote[];
  /** The lines revealed by number, in order. */
  revealedLines: number[];
} = {
  markers: [],
  highlights: [],
  revealed: [],
  selected: [],
  readOnly: false,
  lineNotes: [],
  revealedLines: [],
};

export function resetFakeEditor(): void {
  fakeEditor.markers = [];
  fakeEditor.highlights = [];
  fakeEditor.revealed = [];
  fakeEditor.selected = [];
  fakeEditor.readOnly = false;
  fakeEditor.lineNotes = [];
  fakeEditor.revealedLines = [];
}

const NO_LENSES: readonly EditorLens[] = [];

export default function FakeConfigEditor({
  initialText,
  readOnly,
  onReady,
  onDirtyChange,
  onChange,
  lenses = NO_LENSES,
  onLens,
}: ConfigEditorProps) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const callbacks = useRef({ onReady, onDirtyChange, onChange });
  useEffect(() => {
    callbacks.current = { onReady, onDirtyChange, onChange };
    fakeEditor.readOnly = readOnly;
  });

  useEffect(() => {
    const element = textarea.current;
    if (!element) return;
    let clean = element.value;
    let dirty = false;
    const emitDirty = () => {
      const next = element.value !== clean;
      if (next !== dirty) {
        dirty = next;
        callbacks.current.onDirtyChange(next);
      }
    };
    element.addEventListener('input', () => {
      emitDirty();
      callbacks.current.onChange?.();
    });
    const handle: ConfigEditorHandle = {
      getText: () => element.value,
      replaceText(text) {
        element.value = text;
        emitDirty();
      },
      markClean() {
        clean = element.value;
        emitDirty();
      },
      setServerIssues(issues: readonly ValidationIssue[]) {
        const positions = textPositions(element.value);
        fakeEditor.markers = issues.map((issue) => issueToMarker(positions, issue));
      },
      revealIssue(index) {
        fakeEditor.revealed.push(index);
        element.focus();
      },
      selectIssue(issue) {
        fakeEditor.selected.push(issue);
        element.focus();
      },
      highlight(ranges) {
        fakeEditor.highlights = [...ranges];
      },
      setLineNotes(notes) {
        fakeEditor.lineNotes = [...notes];
      },
      revealLine(line) {
        fakeEditor.revealedLines.push(line);
        element.focus();
      },
      focus: () => element.focus(),
      saveViewState: () => ({ selectionStart: element.selectionStart }),
      restoreViewState: () => undefined,
    };
    callbacks.current.onReady(handle);
  }, []);

  return (
    <>
      <textarea ref={textarea} aria-label="Config YAML" defaultValue={initialText} />
      {lenses.length > 0 && (
        <ul aria-label="CodeLenses">
          {lenses.map((lens) => (
            <li key={lens.id} data-line={lens.line}>
              <button type="button" title={lens.tooltip} onClick={() => onLens?.(lens.id)}>
                {lens.title}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The diff view's stand-in: both texts, side by side as plain text. */
export function FakeDiffView({ original, modified, label }: DiffViewProps) {
  return (
    <div role="group" aria-label={label}>
      <pre data-side="original">{original}</pre>
      <pre data-side="modified">{'text' in modified ? modified.text : modified.modelPath}</pre>
    </div>
  );
}
