/**
 * The Monaco components, loaded when first rendered: Monaco and its workers are fetched on
 * the pages that show an editor or a diff, never with the first page.
 */
import { lazy } from 'react';

export const ConfigEditor = lazy(() => import('./monaco/config-editor'));
export const DiffView = lazy(() => import('./monaco/diff-view'));
