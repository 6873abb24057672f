/**
 * What validation may know of the account beyond the text. Validation stays a pure function
 * of its inputs: the service passes what it read of the account, and a rule that needs a
 * missing part is skipped (the console's own checks and the JSON Schema know no account).
 */
export interface ValidationContext {
  /** The account's metric ids: a test naming another gets `ab_test.unknown_metric`. */
  readonly metricIds?: readonly string[];
}
