/**
 * Why a request changed nothing, in the domain's terms (a config that is not there, a step
 * its state does not allow, a draft that is not valid). The error handler says each in HTTP.
 */
import type { ValidationReport } from '../../contract/validation';

export type RefusalKind =
  /** What the request names is not in the caller's account. */
  | 'not_found'
  /** The thing exists, but its state does not allow the step (publishing a published config). */
  | 'not_allowed_in_state'
  /** The step would leave or make live a config with errors. */
  | 'invalid_config'
  /** The caller may not grant what it asked for. */
  | 'beyond_permissions'
  /** A draft lacks the approvals the account's policy asks for before it is published. */
  | 'approval_required'
  /** A draft's author tried to approve it. */
  | 'own_draft'
  /** A verdict on a draft whose review nobody requested. */
  | 'review_not_requested'
  /** The reviewer's approval of this revision already counts. */
  | 'already_approved'
  /** A review names a line the draft does not have. */
  | 'line_not_found';

export class Refused extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    /** The report that shows why, for `invalid_config`. */
    readonly report?: ValidationReport,
  ) {
    super(message);
  }
}

export const notFound = (what: string): Refused =>
  new Refused('not_found', `${what} was not found in this account`);
