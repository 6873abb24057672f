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
  | 'line_not_found'
  /** A field is well formed, but its value is refused (a webhook URL the policy forbids). */
  | 'invalid_field'
  /** A create would pass one of the account's limits (domain/limits.ts). */
  | 'limit_reached'
  /** The change would leave the account without an admin. */
  | 'last_admin'
  /** An invitation link that was used, revoked or has expired. */
  | 'invitation_unusable'
  /** An email and password that do not match a person (the same for an unknown email). */
  | 'sign_in_failed'
  /** The request contradicts what exists (an invitation for a member, a session from a session). */
  | 'conflict'
  /** Too many failed sign-ins: wait `retryAfterSeconds`. */
  | 'too_many_tries'
  /** The caller may not do this here (password sign-in turned off, another person's link). */
  | 'not_permitted'
  /** A caller reaching several accounts sent no X-Account-Id where one is needed. */
  | 'account_required';

/** The limit a `limit_reached` refusal names, and its value. */
export interface RefusedLimit {
  readonly name: string;
  readonly value: number;
}

/** The field an `invalid_field` refusal is about: a JSON Pointer into the body, and why. */
export interface RefusedField {
  readonly path: string;
  readonly message: string;
}

export class Refused extends Error {
  /** The report that shows why, for `invalid_config`. */
  readonly report: ValidationReport | undefined;
  /** The field at fault, for `invalid_field`. */
  readonly field: RefusedField | undefined;
  /** The limit reached, for `limit_reached`. */
  readonly limit: RefusedLimit | undefined;
  /** How long to wait, for `too_many_tries`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly kind: RefusalKind,
    message: string,
    detail: {
      readonly report?: ValidationReport;
      readonly field?: RefusedField;
      readonly limit?: RefusedLimit;
      readonly retryAfterSeconds?: number;
    } = {},
  ) {
    super(message);
    this.report = detail.report;
    this.field = detail.field;
    this.limit = detail.limit;
    this.retryAfterSeconds = detail.retryAfterSeconds;
  }
}

export const notFound = (what: string): Refused =>
  new Refused('not_found', `${what} was not found in this account`);
