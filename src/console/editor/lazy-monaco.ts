/**
 * The Monaco components, loaded when first rendered: Monaco and its workers are fetched on
 * the pages that show an editor or a diff, never with the first page.
 */
import { lazy } from 'react';

const loadConfigEditor = () => import('./monaco/config-editor');

export const ConfigEditor = lazy(loadConfigEditor);
export const DiffView = lazy(() => import('./monaco/diff-view'));

/**
 * Starts fetching the editor (Monaco's chunk, the largest of the page) now, alongside the
 * config it will show, instead of once the config has arrived.
 */
export function preloadConfigEditor(): void {
  void loadConfigEditor();
}
