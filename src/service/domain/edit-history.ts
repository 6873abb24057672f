/**
 * A draft's edits after a revision, read from its history: what a merge replays, and what
 * rebuilds an older revision's text.
 */
import type { NewerEdit } from '../../configs/merge/merge-edits';
import type { ConfigRecordRow } from '../store/records';
import type { LockedConfigTransaction } from '../store/store';
import { refuseEdit } from './edit-refusals';

/** What a merge reads: the store, or the connection of the unit of work it runs in. */
export type MergeReads = Pick<LockedConfigTransaction, 'getConfig' | 'historyAfter'>;

/** The edits of a draft after `revision`, refused unless the history holds every one. */
export async function editsAfter(
  reads: MergeReads,
  target: ConfigRecordRow,
  revision: number,
): Promise<NewerEdit[]> {
  const edits = (await reads.historyAfter(target.id, revision)).filter(
    (entry) => entry.action === 'edit',
  );
  const complete =
    edits.length === target.revision - revision &&
    edits.every((entry, at) => entry.revision === revision + at + 1);
  if (!complete) {
    throw refuseEdit({
      kind: 'merge_out_of_reach',
      message: `The edits of the config ${target.id} since revision ${revision} are no longer all kept, so this edit cannot be merged: reload the config and make the edit again`,
    });
  }
  return edits.map((entry) => ({
    revision: entry.revision,
    by: entry.actor_email ?? entry.api_key_name ?? 'unknown',
    at: entry.at,
    operations: entry.operations,
    ...(entry.text_changes ? { textChanges: entry.text_changes } : {}),
  }));
}
