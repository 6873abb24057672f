/** Failed password sign-ins, counted by email hash and by client address. */
import { dialects, get, run, sql, type Op } from '../sql/sql';

export type FailureScope = 'email' | 'ip';

const ADD = sql('INSERT INTO sign_in_failures (scope, subject, at) VALUES (?, ?, ?)');
const COUNT = sql(
  'SELECT COUNT(*) AS n, MAX(at) AS last FROM sign_in_failures WHERE scope = ? AND subject = ? AND at > ?',
);
const CLEAR = sql('DELETE FROM sign_in_failures WHERE scope = ? AND subject = ?');
/** The table has no key of its own: each database's row address names a row. */
const PRUNE = dialects({
  sqlite: `DELETE FROM sign_in_failures WHERE rowid IN (
             SELECT rowid FROM sign_in_failures WHERE at < ? LIMIT ?)`,
  postgres: `DELETE FROM sign_in_failures WHERE ctid IN (
               SELECT ctid FROM sign_in_failures WHERE at < ? LIMIT ?)`,
});

export interface FailureCount {
  readonly count: number;
  readonly last: string | null;
}

export function* addSignInFailures(
  subjects: readonly { readonly scope: FailureScope; readonly subject: string }[],
  at: string,
): Op<void> {
  for (const { scope, subject } of subjects) yield* run(ADD, scope, subject, at);
}

export function* countSignInFailures(
  scope: FailureScope,
  subject: string,
  since: string,
): Op<FailureCount> {
  const row = yield* get(COUNT, scope, subject, since);
  return { count: Number(row?.n ?? 0), last: (row?.last as string | null) ?? null };
}

export function* clearSignInFailures(scope: FailureScope, subject: string): Op<void> {
  yield* run(CLEAR, scope, subject);
}

/** Deletes at most `limit` failures older than `before`; how many. */
export function pruneSignInFailures(before: string, limit: number): Op<number> {
  return run(PRUNE, before, limit);
}
