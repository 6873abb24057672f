/**
 * Why an operation could not be applied, in the config's terms; nothing of the edit is kept.
 * The service decides what each kind means to its callers.
 */
import type { ActionKey } from '../../contract/operations';

export type RefusalKind =
  /** The item cannot be read as the action's item (a field missing, a bad pointer, too deep). */
  | 'invalid_operation'
  /** It collides with what the config holds (an id taken, a path through a scalar). */
  | 'conflict'
  /** What it names is not in a state that allows it (a lifecycle step, an unreadable config). */
  | 'not_allowed_in_state'
  /** It names something the config does not hold (an app, a test, a variant, a path). */
  | 'not_found';

export interface OperationRefusal {
  readonly kind: RefusalKind;
  /** Stable code, e.g. `app.id_taken`, `ab_test.invalid_transition`, `path.not_found`. */
  readonly code: string;
  readonly message: string;
  readonly operationIndex: number;
  readonly itemIndex: number;
  readonly action: ActionKey;
  /**
   * JSON Pointer of the item in the request, e.g. `/operations/2/create_app/0`, or of its
   * field when the refusal is about one (`/operations/0/set/0/value`).
   */
  readonly requestPath: string;
}

/** Thrown inside the applier to unwind; `applyOperations` turns it into a result. */
export class RefusalError extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly code: string,
    message: string,
    /** The item's field the refusal is about, if one is. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export const refuse = {
  badItem: (message: string, field?: string) =>
    new RefusalError('invalid_operation', 'operation.invalid_item', message, field),
  /** The edit would make the config nest deeper than MAX_NESTING_DEPTH levels. */
  tooDeep: (message: string, field?: string) =>
    new RefusalError('invalid_operation', 'config.too_deep', message, field),
  conflict: (code: string, message: string) => new RefusalError('conflict', code, message),
  notAllowed: (code: string, message: string) =>
    new RefusalError('not_allowed_in_state', code, message),
  notFound: (code: string, message: string) => new RefusalError('not_found', code, message),
};
