/**
 * What Save draft posts for an edit: the operations (its meaning) and the text as the person
 * typed it (`edit_text`, changes against the saved text), so the saved text is theirs to the
 * byte: comments, quotes and order included.
 */
import type { EditorOperationsResult } from '../../../../configs';
import { textChangesBetween } from '../../../../configs/text-edit';
import { operations as op, type Operation } from '../../../../contract/operations';

export type EditToPost =
  | { readonly status: 'syntax_error' | 'unchanged' }
  | {
      readonly status: 'changed';
      /** The operations the editor worked out, then `edit_text`. */
      readonly operations: Operation[];
      /** The operations alone, for a service that will not take the text. */
      readonly meaning: Operation[];
    };

export function editToPost(
  edit: EditorOperationsResult,
  baseText: string,
  editedText: string,
): EditToPost {
  if (edit.status === 'syntax_error') return { status: 'syntax_error' };
  if (baseText === editedText) return { status: 'unchanged' };
  const meaning = edit.status === 'changed' ? edit.operations : [];
  const typed = op.editText(...textChangesBetween(baseText, editedText));
  return { status: 'changed', operations: [...meaning, typed], meaning };
}
