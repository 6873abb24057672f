/** What the sign-in throttle asks of the store. */
import type { FailureCount, FailureScope } from './sign-in-failures';

export interface SignInThrottleStore {
  addSignInFailures(
    subjects: readonly { readonly scope: FailureScope; readonly subject: string }[],
    at: string,
  ): Promise<void>;
  countSignInFailures(scope: FailureScope, subject: string, since: string): Promise<FailureCount>;
  clearSignInFailures(scope: FailureScope, subject: string): Promise<void>;
  /** Deletes at most `limit` failures older than `before`; how many. */
  pruneSignInFailures(before: string, limit: number): Promise<number>;
}
