/**
 * What a file means as an edit of a stored config, as the console's editor works it out: the
 * typed operations (its meaning), then `edit_text` (how it is written, changes against the
 * stored text), so that the stored text becomes the file byte for byte. The service keeps
 * `\n` line ends and no byte order mark, so the file is read the same way.
 */
import { editorTextToOperations } from '../configs/editor-operations';
import { normalizeLineEnds } from '../configs/parse';
import { textChangesBetween } from '../configs/text-edit';
import { compareIssues } from '../configs/validation/issue-collector';
import { operations as op, type Operation } from '../contract/operations';
import type { ValidationIssue } from '../contract/validation';

export type FileEdit =
  | { readonly kind: 'syntax_error'; readonly issues: readonly ValidationIssue[] }
  | { readonly kind: 'unchanged' }
  | {
      readonly kind: 'changed';
      /** The typed operations; empty when only comments or formatting changed. */
      readonly meaning: readonly Operation[];
      /** The operations to send: the meaning, then `edit_text`. */
      readonly operations: readonly Operation[];
    };

export function fileEdit(storedText: string, fileText: string): FileEdit {
  const text = normalizeLineEnds(fileText);
  const edit = editorTextToOperations(storedText, text);
  if (edit.status === 'syntax_error')
    return { kind: 'syntax_error', issues: [...edit.issues].sort(compareIssues) };
  if (text === storedText) return { kind: 'unchanged' };
  const meaning = edit.status === 'changed' ? edit.operations : [];
  const typed = op.editText(...textChangesBetween(storedText, text));
  return { kind: 'changed', meaning, operations: [...meaning, typed] };
}

/** What `diff` shows: the meaning, or the text change alone when that is all there is. */
export function shownOperations(
  edit: Extract<FileEdit, { kind: 'changed' }>,
): readonly Operation[] {
  return edit.meaning.length > 0 ? edit.meaning : edit.operations;
}
