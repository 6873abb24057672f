/**
 * Why an operation could not be applied. The service answers with the refusal's HTTP status
 * (api.md §4) and nothing is saved: 400 the item cannot be interpreted, 409 it cannot apply
 * now (id taken, lifecycle step not allowed from the test's status, ...), 422 it names
 * something that does not exist.
 */
import type { ActionKey } from '../../contract/operations';

export type RefusalStatus = 400 | 409 | 422;

export interface OperationRefusal {
  readonly status: RefusalStatus;
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
    readonly status: RefusalStatus,
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
    new RefusalError(400, 'operation.invalid_item', message, field),
  /** The edit would make the config nest deeper than MAX_NESTING_DEPTH levels. */
  tooDeep: (message: string, field?: string) =>
    new RefusalError(400, 'config.too_deep', message, field),
  conflict: (code: string, message: string) => new RefusalError(409, code, message),
  missing: (code: string, message: string) => new RefusalError(422, code, message),
};
