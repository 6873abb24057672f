/**
 * Error bodies: RFC 9457 problem details, sent as `application/problem+json` with every
 * non-2xx response (docs/api.md, Errors).
 */
import { described, wholeNumber, z } from './zod';
import { timestampSchema } from './timestamp';
import { validationReportSchema } from './validation';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * The problem codes this server sends, with their status and title. `code` stays an open
 * string in the schema so that a client keeps working when a server adds a code.
 */
export const PROBLEM_CODES = {
  invalid_request: { status: 400, title: 'The request is malformed' },
  unauthenticated: { status: 401, title: 'A valid API key is required' },
  api_key_invalid: { status: 401, title: 'The API key is not valid' },
  api_key_revoked: { status: 401, title: 'The API key was revoked' },
  api_key_expired: { status: 401, title: 'The API key has expired' },
  account_required: {
    status: 400,
    title: 'Name the account to act on in X-Account-Id',
  },
  session_expired: { status: 401, title: 'The session has expired; sign in again' },
  session_revoked: { status: 401, title: 'The session was ended; sign in again' },
  sign_in_failed: { status: 401, title: 'The email or password is not right' },
  csrf_refused: { status: 403, title: 'The request did not come from the console' },
  forbidden: { status: 403, title: 'A permission is missing' },
  own_draft: { status: 403, title: "A draft's author cannot approve it" },
  not_found: { status: 404, title: 'Not found' },
  request_timeout: { status: 408, title: 'The request took too long to arrive' },
  conflict: { status: 409, title: 'The operation cannot apply now' },
  invalid_config: { status: 409, title: 'The result would not be a valid config' },
  edit_conflict: { status: 409, title: 'The edit touches what a newer edit changed' },
  text_conflict: { status: 409, title: 'The text changes meet a newer edit’s' },
  config_too_large: { status: 409, title: 'The resulting config would be too large' },
  approval_required: { status: 409, title: 'The draft lacks the approvals it needs' },
  review_not_requested: { status: 409, title: 'No review of the draft was requested' },
  already_approved: { status: 409, title: 'The reviewer already approved this revision' },
  limit_reached: { status: 409, title: 'An account limit is reached' },
  last_admin: { status: 409, title: 'The account would be left without an admin' },
  invitation_unusable: { status: 409, title: 'The invitation was used, revoked or has expired' },
  precondition_failed: { status: 412, title: 'The config has changed' },
  payload_too_large: { status: 413, title: 'The body is too large' },
  unsupported_media_type: { status: 415, title: 'The body must be application/json' },
  unknown_target: { status: 422, title: 'The operation names something that does not exist' },
  line_not_found: { status: 422, title: 'The line is not in the config' },
  rate_limited: { status: 429, title: 'Too many requests' },
  headers_too_large: { status: 431, title: 'The request headers are too large' },
  internal_error: { status: 500, title: 'Internal error' },
  database_unavailable: { status: 503, title: 'The database is unavailable' },
  service_busy: { status: 503, title: 'The service is busy; try again shortly' },
  shutting_down: { status: 503, title: 'The service is shutting down' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEM_CODES;

/**
 * The codes of a 401: no key was sent, or the key sent is malformed or unknown, revoked, or
 * expired. A client tells the person why with these, never with the detail's words.
 */
export const UNAUTHENTICATED_CODES = [
  'unauthenticated',
  'api_key_invalid',
  'api_key_revoked',
  'api_key_expired',
  'session_expired',
  'session_revoked',
] as const satisfies readonly ProblemCode[];

export type UnauthenticatedCode = (typeof UNAUTHENTICATED_CODES)[number];

/**
 * `type` is an opaque URN per code: RFC 9457 lets a problem type be a non-dereferenceable
 * URI, and a URN cannot be mistaken for a route of this API.
 */
export function problemTypeUri(code: string): string {
  return `urn:provisioning:problem:${code}`;
}

export const problemFieldErrorSchema = z
  .object({
    path: described(
      z.string(),
      'JSON Pointer (RFC 6901) into the request body, e.g. /operations/2/create_app/0/platform',
    ),
    message: z.string(),
  })
  .register(z.globalRegistry, { id: 'ProblemFieldError' });

/** One field that an edit and a newer edit both changed (409 edit_conflict). */
export const editConflictSchema = z
  .object({
    path: described(z.string(), 'JSON Pointer into the config data, e.g. /apps/2/settings/theme'),
    base: described(
      z.optional(z.unknown()),
      'The value at base_revision; absent when there was none',
    ),
    theirs: described(z.optional(z.unknown()), 'The current value; absent when there is none'),
    mine: described(
      z.optional(z.unknown()),
      "The value this edit's operations give it on base_revision; absent when they remove it",
    ),
    revision: described(wholeNumber(1), 'The revision of the newer edit that changed it last'),
    by: described(z.string(), "That edit's author: an e-mail, else the API key's name"),
    at: described(timestampSchema(), 'When that edit was made'),
  })
  .register(z.globalRegistry, { id: 'EditConflict' });
export type EditConflict = z.infer<typeof editConflictSchema>;

export const problemLimitSchema = z
  .object({
    name: described(
      z.string(),
      'Which limit: webhook_endpoints, client_keys or api_keys_per_person',
    ),
    value: described(wholeNumber(1), 'How many the account (or person) may hold'),
  })
  .register(z.globalRegistry, { id: 'ProblemLimit' });

export const problemSchema = z
  .object({
    type: described(z.string(), 'URI of the problem type, e.g. urn:provisioning:problem:not_found'),
    title: described(z.string(), 'Short summary of the problem type'),
    status: z.number().check(z.int(), z.minimum(400), z.maximum(599)),
    detail: described(z.string(), 'What went wrong in this occurrence'),
    code: described(
      z.string(),
      `Stable machine-readable code: ${Object.keys(PROBLEM_CODES).join(', ')}`,
    ),
    errors: described(
      z.optional(z.array(problemFieldErrorSchema)),
      'What in the request is wrong, one entry per problem',
    ),
    validation: described(
      z.optional(validationReportSchema),
      'The validation report that made a publish or lifecycle step fail',
    ),
    conflicts: described(
      z.optional(z.array(editConflictSchema)),
      'For edit_conflict: each field both edits changed',
    ),
    limit: described(
      z.optional(problemLimitSchema),
      'For limit_reached: the limit the request would pass',
    ),
  })
  .register(z.globalRegistry, { id: 'Problem', description: 'RFC 9457 problem details.' });

export type ProblemFieldError = z.infer<typeof problemFieldErrorSchema>;
export type Problem = z.infer<typeof problemSchema>;

/** A problem body for a known code; the title and status come from PROBLEM_CODES. */
export function problemOf(
  code: ProblemCode,
  detail: string,
  extra: Pick<Problem, 'errors' | 'validation' | 'conflicts' | 'limit'> = {},
): Problem {
  const { status, title } = PROBLEM_CODES[code];
  return { type: problemTypeUri(code), title, status, detail, code, ...extra };
}

/** RFC 6901: a reference token escapes "~" as "~0" and "/" as "~1" (in that order). */
export function escapeJsonPointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON Pointer from a path of keys and indices; [] is "" (the whole document). */
export function toJsonPointer(path: readonly PropertyKey[]): string {
  return path.map((segment) => `/${escapeJsonPointerToken(String(segment))}`).join('');
}

/**
 * zod issues as problem `errors`. An unknown key is reported at the key itself, one entry per
 * key, so that a client can point at exactly what is wrong.
 */
export function zodIssuesToProblemErrors(issues: readonly z.core.$ZodIssue[]): ProblemFieldError[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: toJsonPointer([...issue.path, key]),
          message: `unknown key "${key}"`,
        }))
      : [{ path: toJsonPointer(issue.path), message: issue.message }],
  );
}
