/**
 * An error that answers with a problem body (docs/api.md). Anything else thrown becomes a 500
 * that reveals nothing (plugins/error-handler.ts).
 */
import { problemOf, type Problem, type ProblemCode } from '../contract/problem';

export class HttpProblem extends Error {
  constructor(
    readonly problem: Problem,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(problem.detail);
  }

  static of(
    code: ProblemCode,
    detail: string,
    extra: Pick<Problem, 'errors' | 'validation'> = {},
    headers: Readonly<Record<string, string>> = {},
  ): HttpProblem {
    return new HttpProblem(problemOf(code, detail, extra), headers);
  }
}
