/**
 * Monaco's diff editor, read-only: what a config was on the left, what it becomes on the
 * right. The right side is either a text or the editor's own model (so the diff follows the
 * person's typing without copying the text).
 *
 * Built on Monaco directly rather than @monaco-editor/react's DiffEditor, which disposes the
 * models before the diff editor on unmount (Monaco then throws "TextModel got disposed
 * before DiffEditorWidget model got reset").
 */
import { useEffect, useRef } from 'react';
import type { DiffViewProps } from '../editor-types';
import { monaco, themeOf } from './monaco-setup';

export default function DiffView({
  original,
  modified,
  label,
  dark,
  inline = false,
  height = '24rem',
}: DiffViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const modifiedText = 'text' in modified ? modified.text : null;
  const modifiedPath = 'modelPath' in modified ? modified.modelPath : null;

  useEffect(() => {
    monaco.editor.setTheme(themeOf(dark));
  }, [dark]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const shared =
      modifiedPath === null ? null : monaco.editor.getModel(monaco.Uri.parse(modifiedPath));
    if (modifiedPath !== null && !shared) return;
    const originalModel = monaco.editor.createModel(original, 'yaml');
    const ownModified = shared ? null : monaco.editor.createModel(modifiedText ?? '', 'yaml');
    const ariaLabels: Parameters<typeof monaco.editor.createDiffEditor>[1] = {
      originalAriaLabel: `${label}: before`,
      modifiedAriaLabel: `${label}: after`,
    };
    const diff = monaco.editor.createDiffEditor(element, {
      readOnly: true,
      originalEditable: false,
      // Textareas named by the aria labels (the EditContext element goes unnamed).
      editContext: false,
      renderSideBySide: !inline,
      useInlineViewWhenSpaceIsLimited: false,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 13,
      ...ariaLabels,
    });
    diff.setModel({ original: originalModel, modified: shared ?? ownModified ?? originalModel });
    // Monaco 0.54 drops the aria labels when it next adjusts the inner editors' options
    // (only options that changed are carried over): give them again.
    diff.updateOptions(ariaLabels);
    return () => {
      // The diff editor lets go of its models before they are disposed.
      diff.setModel(null);
      diff.dispose();
      originalModel.dispose();
      ownModified?.dispose();
    };
  }, [original, modifiedText, modifiedPath, inline, label]);

  return (
    <div ref={container} className="diff-view" role="group" aria-label={label} style={{ height }} />
  );
}
