/**
 * One error handler (docs/api.md): every non-2xx is `application/problem+json`. Our own
 * HttpProblems answer as they are, the domain's refusals as refusal-problems.ts says; Fastify's client errors (bad JSON, body too large, wrong
 * content type) get the matching problem; anything else is a 500 that reveals nothing and is
 * logged in full.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemOf, type Problem } from '../../contract/problem';
import { HttpProblem } from '../http-problem';
import { refusalProblem } from './refusal-problems';
import { asDatabaseUnavailable } from '../store/database-unavailable';
import { securityHeadersFor } from './security-headers';

export function sendProblem(
  reply: FastifyReply,
  problem: Problem,
  headers: Readonly<Record<string, string>> = {},
) {
  return reply.code(problem.status).headers(headers).type(PROBLEM_CONTENT_TYPE).send(problem);
}

function problemForFastifyError(error: FastifyError): Problem | undefined {
  const status = error.statusCode ?? 500;
  if (status >= 500) return undefined;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problemOf('payload_too_large', 'The body is over 1 MiB (1,048,576 bytes)');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problemOf('unsupported_media_type', 'Send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problemOf('invalid_request', 'The body is empty; send a JSON object');
    default:
      if (status === 400)
        return problemOf('invalid_request', `The body is not valid JSON: ${error.message}`);
      if (status === 413) return problemOf('payload_too_large', error.message);
      if (status === 415)
        return problemOf('unsupported_media_type', 'Send the body as application/json');
      return { ...problemOf('invalid_request', error.message), status };
  }
}

/** Seconds a client waits before it sends again a request the database could not serve. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpProblem) return sendProblem(reply, error.problem, error.headers);
    const refusal = refusalProblem(error);
    if (refusal) return sendProblem(reply, refusal.problem, refusal.headers);
    // The database not answering is an outage to wait out, not a bug: 503 with Retry-After.
    const unavailable = asDatabaseUnavailable(error);
    if (unavailable) {
      request.log.warn({ err: unavailable }, 'database unavailable');
      return sendProblem(
        reply,
        problemOf(
          'database_unavailable',
          'The database is not answering; send the request again after the Retry-After seconds',
        ),
        { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      );
    }
    const problem = problemForFastifyError(error);
    if (problem) return sendProblem(reply, problem);
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(
      reply,
      problemOf('internal_error', 'Something went wrong on our side; nothing was saved'),
    );
  });
}

/**
 * Fastify's `frameworkErrors`: errors raised while routing, before hooks and the error
 * handler (a URL that is not valid percent-encoded UTF-8, a path parameter over the router's
 * length limit). Without it they answer plain JSON without the security headers.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const detail =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path parameter is too long'
      : 'The URL is not valid: a path segment is not percent-encoded UTF-8';
  return sendProblem(reply, problemOf('invalid_request', detail), securityHeadersFor(request.url));
}
