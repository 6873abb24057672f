/**
 * How the service answers what the domain refused: the one place that gives refusals an
 * HTTP status and a problem code (the domain and src/configs say only what went wrong).
 */
import type { RefusalKind as OperationRefusalKind } from '../../configs/operations/refusal';
import {
  PROBLEM_CODES,
  problemOf,
  problemTypeUri,
  type Problem,
  type ProblemCode,
} from '../../contract/problem';
import { EditRefused, type EditRefusal } from '../domain/edit-refusals';
import { Refused, type RefusalKind } from '../domain/refusals';

const REFUSAL_PROBLEMS: Readonly<Record<RefusalKind, ProblemCode>> = {
  not_found: 'not_found',
  not_allowed_in_state: 'conflict',
  invalid_config: 'invalid_config',
  beyond_permissions: 'forbidden',
  approval_required: 'approval_required',
  own_draft: 'own_draft',
  review_not_requested: 'review_not_requested',
  already_approved: 'already_approved',
  line_not_found: 'line_not_found',
  invalid_field: 'invalid_request',
  limit_reached: 'limit_reached',
  last_admin: 'last_admin',
  invitation_unusable: 'invitation_unusable',
  sign_in_failed: 'sign_in_failed',
  conflict: 'conflict',
  too_many_tries: 'rate_limited',
  not_permitted: 'forbidden',
  account_required: 'account_required',
};

/** The problem code an operation's refusal is answered with (its own code names it). */
const OPERATION_REFUSAL_CODES: Readonly<Record<OperationRefusalKind, ProblemCode>> = {
  invalid_operation: 'invalid_request',
  conflict: 'conflict',
  not_allowed_in_state: 'conflict',
  not_found: 'unknown_target',
};

/** A refusal as it is answered: its problem, and the headers that go with it. */
export interface RefusalAnswer {
  readonly problem: Problem;
  readonly headers: Readonly<Record<string, string>>;
}

/** How `error` is answered, when it is a refusal; undefined otherwise. */
export function refusalProblem(error: unknown): RefusalAnswer | undefined {
  if (error instanceof EditRefused) {
    const { refusal } = error;
    const headers: Record<string, string> =
      refusal.kind === 'edit_queue_full'
        ? { 'retry-after': String(refusal.retryAfterSeconds) }
        : {};
    return { problem: editRefusalProblem(refusal), headers };
  }
  if (error instanceof Refused) {
    const problem = problemOf(REFUSAL_PROBLEMS[error.kind], error.message, {
      ...(error.report ? { validation: error.report } : {}),
      ...(error.field ? { errors: [{ ...error.field }] } : {}),
      ...(error.limit ? { limit: { ...error.limit } } : {}),
    });
    const wait = error.retryAfterSeconds;
    return { problem, headers: wait === undefined ? {} : { 'retry-after': String(wait) } };
  }
  return undefined;
}

function editRefusalProblem(refusal: EditRefusal): Problem {
  switch (refusal.kind) {
    case 'operation_refused': {
      const { kind, code, message, requestPath } = refusal.refusal;
      const generic = PROBLEM_CODES[OPERATION_REFUSAL_CODES[kind]];
      return {
        type: problemTypeUri(code),
        title: generic.title,
        status: generic.status,
        detail: message,
        code,
        errors: [{ path: requestPath, message }],
      };
    }
    case 'target_not_found':
      return problemOf('not_found', refusal.message);
    case 'target_changed':
      return problemOf('precondition_failed', refusal.message);
    case 'bad_base_revision':
      return problemOf('invalid_request', refusal.message, {
        errors: [{ path: '/base_revision', message: refusal.message }],
      });
    case 'merge_out_of_reach':
      return problemOf('conflict', refusal.message);
    case 'text_conflict':
      return problemOf('text_conflict', refusal.message);
    case 'edit_conflict':
      return problemOf('edit_conflict', refusal.message, { conflicts: [...refusal.conflicts] });
    case 'too_large':
      return problemOf('config_too_large', refusal.message);
    case 'edit_queue_full':
      return problemOf('service_busy', refusal.message);
    case 'live_would_be_invalid':
      return problemOf('invalid_config', refusal.message, { validation: refusal.report });
  }
}
