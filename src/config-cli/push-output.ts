/** What `config push` prints: the saved draft and its issues, or why nothing was saved. */
import type { ConfigEditResult } from '../contract/config-edit';
import type { EditConflict, Problem } from '../contract/problem';
import { issueLines } from './issue-formats';

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * The draft, the revisions the push merged with, and every issue. Issues sit at the file's
 * positions when the saved text is the file; a merge that kept newer edits' text too places
 * them in the saved text, which `pull` gives.
 */
export function savedDraft(file: string, fileText: string, result: ConfigEditResult): string {
  const origin = result.created ? `new, from ${result.base_config_id}` : 'updated';
  const report = result.validation;
  const savedIsFile = report.yaml === undefined || report.yaml === fileText;
  const where = savedIsFile ? file : `${result.id}@${result.revision ?? result.config.revision}`;
  return [
    `draft ${result.id} revision ${result.revision ?? result.config.revision} (${origin})\n`,
    `merged revisions: ${result.merged_revisions.join(', ') || 'none'}\n`,
    savedIsFile
      ? ''
      : `the saved text holds newer edits besides ${file}: issues are placed in it (pull it to see them)\n`,
    issueLines(where, report.issues),
    `${report.valid ? 'valid' : 'not valid'}: ${count(report.error_count, 'error')}, ${count(report.warning_count, 'warning')}\n`,
  ].join('');
}

const shown = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value));

/** A 409 edit_conflict: each field both edits changed, with base, theirs and mine. */
export function conflicts(problem: Problem, list: readonly EditConflict[]): string {
  return [
    `not saved: ${problem.detail}\n`,
    ...list.map(
      (conflict) =>
        `${conflict.path} (revision ${conflict.revision} by ${conflict.by} at ${conflict.at})\n` +
        `  base:   ${shown(conflict.base)}\n` +
        `  theirs: ${shown(conflict.theirs)}\n` +
        `  mine:   ${shown(conflict.mine)}\n`,
    ),
  ].join('');
}

/** Any other refusal of the edit: its code, detail and the fields at fault. */
export function refused(what: string, problem: Problem): string {
  return [
    `${what}: ${problem.code}: ${problem.detail}\n`,
    ...(problem.errors ?? []).map((error) => `  ${error.path}: ${error.message}\n`),
  ].join('');
}
