/**
 * Why an edit changed nothing, in the edit's own terms. The error handler says each in HTTP
 * (plugins/refusal-problems.ts), so that what the edit means stays apart from how it is sent.
 */
import type { OperationRefusal } from '../../configs/operations/refusal';
import type { EditConflict } from '../../contract/problem';
import type { ValidationReport } from '../../contract/validation';

export type EditRefusal =
  /** An operation could not be applied to the config. */
  | { readonly kind: 'operation_refused'; readonly refusal: OperationRefusal }
  /** The config named, or the live config, is not in the account. */
  | { readonly kind: 'target_not_found'; readonly message: string }
  /** The config changed since the caller read it (another id went live, or a new revision). */
  | { readonly kind: 'target_changed'; readonly message: string }
  /** base_revision cannot name a revision to merge from (or came with If-Match). */
  | { readonly kind: 'bad_base_revision'; readonly message: string }
  /** The edits since base_revision are too many, or the base can no longer be rebuilt. */
  | { readonly kind: 'merge_out_of_reach'; readonly message: string }
  /** The edit touches what the edits since base_revision touched. */
  | {
      readonly kind: 'edit_conflict';
      readonly message: string;
      readonly conflicts: readonly EditConflict[];
    }
  /**
   * A merged edit that changes only the text (comments, formatting) whose changes meet the
   * newer edits' changes: the text is all it has, so the service cannot write it instead.
   */
  | { readonly kind: 'text_conflict'; readonly message: string }
  /** The edited text would be larger than a config may be. */
  | { readonly kind: 'too_large'; readonly message: string }
  /** Too many edits wait for the account's worker: send again after `retryAfterSeconds`. */
  | {
      readonly kind: 'edit_queue_full';
      readonly message: string;
      readonly retryAfterSeconds: number;
    }
  /** A lifecycle step would make the live config invalid. */
  | {
      readonly kind: 'live_would_be_invalid';
      readonly message: string;
      readonly report: ValidationReport;
    };

export class EditRefused extends Error {
  constructor(readonly refusal: EditRefusal) {
    super(refusal.kind === 'operation_refused' ? refusal.refusal.message : refusal.message);
  }
}

export const refuseEdit = (refusal: EditRefusal): EditRefused => new EditRefused(refusal);
