/**
 * A save that created a draft moves to the draft's URL; what the person was looking at
 * travels in the router state, so the new page carries on where they were.
 */
import type { Operation } from '../../../../contract/operations';
import type { ConfigEditorHandle } from '../../../editor/editor-types';
import { operationsClient } from '../../../editor/operations-client';

/** How long the lines a save touched stay highlighted. */
export const HIGHLIGHT_MS = 2_000;

export interface SavedArrival {
  readonly appliedPaths: readonly string[];
  readonly operations: readonly Operation[];
  readonly viewState: unknown;
}

/** The router state that carries it. */
export function arrivalState(saved: SavedArrival): { saved: SavedArrival } {
  return { saved };
}

export function savedArrivalOf(state: unknown): SavedArrival | null {
  if (typeof state !== 'object' || state === null || !('saved' in state)) return null;
  const saved = state.saved;
  if (typeof saved !== 'object' || saved === null) return null;
  if (!('appliedPaths' in saved) || !Array.isArray(saved.appliedPaths)) return null;
  if (!('operations' in saved) || !Array.isArray(saved.operations)) return null;
  return {
    appliedPaths: saved.appliedPaths.filter((path): path is string => typeof path === 'string'),
    operations: saved.operations as Operation[],
    viewState: 'viewState' in saved ? saved.viewState : undefined,
  };
}

/** Briefly highlights what a save touched, if the editor still shows the saved text. */
export function highlightApplied(
  handle: ConfigEditorHandle,
  text: string,
  paths: readonly string[],
  operations: readonly Operation[],
): void {
  if (paths.length === 0) return;
  operationsClient()
    .run({ kind: 'locate', text, paths, operations })
    .then((ranges) => {
      if (handle.getText() === text) handle.highlight(ranges, HIGHLIGHT_MS);
    })
    .catch(() => undefined);
}
