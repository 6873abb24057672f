/**
 * What the page knows of the editor: plain positions and ranges in Monaco's terms (1-based
 * lines, 1-based columns in UTF-16 code units) and the handle the Monaco component gives the
 * page. Nothing here imports Monaco, so the page logic runs (and is tested) without it.
 */
import type { Severity, ValidationIssue } from '../../contract/validation';

export interface TextPosition {
  readonly lineNumber: number;
  readonly column: number;
}

export interface TextRange {
  readonly startLineNumber: number;
  readonly startColumn: number;
  readonly endLineNumber: number;
  readonly endColumn: number;
}

/** The two conversions of a Monaco text model that marker placement needs. */
export interface PositionModel {
  /** Clamps like Monaco: a line past the end is the last line, a column past it the line end. */
  getOffsetAt(position: TextPosition): number;
  getPositionAt(offset: number): TextPosition;
}

/** A span of the text as UTF-16 offsets, end exclusive. */
export interface OffsetRange {
  readonly start: number;
  readonly end: number;
}

export interface EditorMarker extends TextRange {
  readonly message: string;
  readonly severity: Severity;
  readonly code: string;
}

/** Markers of the server's validation report are kept under this owner (docs/console.md). */
export const SERVER_MARKER_OWNER = 'provisioning-server';

export interface ConfigEditorHandle {
  /** The text as the person sees it, with `\n` line ends. */
  getText(): string;
  /**
   * Makes the text `text` with the smallest edit (one undoable step), so the cursor and the
   * scroll position stay where they were.
   */
  replaceText(text: string): void;
  /** From now on the text counts as saved: no unsaved edits. */
  markClean(): void;
  /** Replaces the server's markers with one per issue (owner `provisioning-server`). */
  setServerIssues(issues: readonly ValidationIssue[]): void;
  /** Selects the range of the `index`th issue (where it is now), reveals it and focuses. */
  revealIssue(index: number): void;
  /** Selects the range `issue` gives in the current text (a syntax error), reveals it, focuses. */
  selectIssue(issue: ValidationIssue): void;
  /** Highlights the lines these offsets cover, for `durationMs`. */
  highlight(ranges: readonly OffsetRange[], durationMs: number): void;
  /** Marks each note's line (1-based) in the margin, with its text on hover; replaces the last. */
  setLineNotes(notes: readonly LineNote[]): void;
  /** Puts the cursor at the start of `line` (clamped to the text), reveals it and focuses. */
  revealLine(line: number): void;
  focus(): void;
  /** Cursor and scroll, to carry over to a new page of the same text. */
  saveViewState(): unknown;
  restoreViewState(state: unknown): void;
}

/** A remark about one line of the text, e.g. a review comment. */
export interface LineNote {
  readonly line: number;
  readonly text: string;
}

/** A CodeLens: a command shown as a line of text above `line`, e.g. "Start". */
export interface EditorLens {
  /** The 1-based line it sits above; lenses on one line show side by side. */
  readonly line: number;
  readonly title: string;
  /** What the lens does, in words, on hover. */
  readonly tooltip?: string;
  /** Given back to `onLens` when the person chooses the lens. */
  readonly id: string;
}

export interface ConfigEditorProps {
  /** Identifies the text model (one per config page). */
  readonly modelPath: string;
  readonly initialText: string;
  readonly readOnly: boolean;
  readonly dark: boolean;
  /** The config's JSON Schema for completion, hover and instant checks. */
  readonly schema: object;
  /** Called once the editor runs, with its handle. */
  readonly onReady: (handle: ConfigEditorHandle) => void;
  /** Called when the text gets or loses unsaved edits. */
  readonly onDirtyChange: (dirty: boolean) => void;
  /** Called after every change of the text. */
  readonly onChange?: () => void;
  /** CodeLenses of this editor's text (none by default). */
  readonly lenses?: readonly EditorLens[];
  /** Called with a lens's id when the person chooses it. */
  readonly onLens?: (id: string) => void;
}

export interface DiffViewProps {
  /** The text on the left: what the config was. */
  readonly original: string;
  /** The text on the right, or the model path of the editor whose text it is (live). */
  readonly modified: { readonly text: string } | { readonly modelPath: string };
  /** Names the region for assistive technology ("Changes", "Changes to publish"). */
  readonly label: string;
  readonly dark: boolean;
  /** One column with removed and added lines (narrow places such as dialogs). */
  readonly inline?: boolean;
  readonly height?: string;
}
