/**
 * What a save touched, highlighted for a moment; and, when the save created a draft and
 * the page moves to its URL, what the person was looking at, carried in the router state.
 */
import type { AppliedRange } from '../../../../contract/config-edit';
import type { ConfigEditorHandle, OffsetRange } from '../../../editor/editor-types';
import { textPositions } from '../../../editor/markers';
import type { SavedEdit } from './issue-origins';

/** How long the lines a save touched stay highlighted. */
export const HIGHLIGHT_MS = 2_000;

export interface SavedArrival {
  /** Where the save's applied paths sit in the saved text (the server's answer). */
  readonly appliedRanges: readonly AppliedRange[];
  readonly viewState: unknown;
  /** What the save posted and touched, to name the operation behind each issue. */
  readonly save?: SavedEdit;
}

/** The router state that carries it. */
export function arrivalState(saved: SavedArrival): { saved: SavedArrival } {
  return { saved };
}

function isAppliedRange(value: unknown): value is AppliedRange {
  if (typeof value !== 'object' || value === null) return false;
  const range = value as Record<string, unknown>;
  return ['line', 'column', 'length'].every((key) => typeof range[key] === 'number');
}

// Only this page writes the router state: the shape is checked, the operations are trusted.
function isSavedEdit(value: unknown): value is SavedEdit {
  if (typeof value !== 'object' || value === null) return false;
  const save = value as Record<string, unknown>;
  return Array.isArray(save.operations) && Array.isArray(save.appliedPaths);
}

export function savedArrivalOf(state: unknown): SavedArrival | null {
  if (typeof state !== 'object' || state === null || !('saved' in state)) return null;
  const saved = state.saved;
  if (typeof saved !== 'object' || saved === null) return null;
  if (!('appliedRanges' in saved) || !Array.isArray(saved.appliedRanges)) return null;
  return {
    appliedRanges: saved.appliedRanges.filter(isAppliedRange),
    viewState: 'viewState' in saved ? saved.viewState : undefined,
    ...('save' in saved && isSavedEdit(saved.save) ? { save: saved.save } : {}),
  };
}

/** Line, column and length (as validation issues count them) as offsets into `text`. */
export function appliedOffsets(text: string, ranges: readonly AppliedRange[]): OffsetRange[] {
  const positions = textPositions(text);
  return ranges.map(({ line, column, length }) => {
    const start = positions.getOffsetAt({ lineNumber: line, column });
    return { start, end: Math.min(text.length, start + length) };
  });
}

/** Briefly highlights what a save touched in the saved text the editor shows. */
export function highlightApplied(
  handle: ConfigEditorHandle,
  text: string,
  ranges: readonly AppliedRange[],
): void {
  if (ranges.length > 0) handle.highlight(appliedOffsets(text, ranges), HIGHLIGHT_MS);
}
