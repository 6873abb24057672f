/**
 * One structured log line per request (pino through Fastify): method, URL, status, time and
 * the key's id, never the Authorization header or a secret.
 *
 * The line of a request that succeeded is written through a sibling of the service's logger
 * without its redaction: the line is made only of the fields above, none of which can hold a
 * secret (the URL's key-like runs are replaced first), so the redaction paths never match
 * it, and pino ran them (the `*.secret` wildcard once per field) on every line: a quarter of
 * the cost of the line (docs/benchmarks.md). A failed request's line carries the error, which
 * may hold anything: it goes through the request's own, redacting logger.
 */
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { redactSecrets } from '../domain/api-key-secrets';

export class OneLinePerRequest extends LogController {
  /** The request-line logger of each service logger, made on its first request. */
  private readonly lineLoggers = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();

  override incomingRequest(): void {
    // Logged once, when the response is done.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      // A key pasted into a URL by mistake must not reach the logs.
      url: redactSecrets(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      key: request.principal?.key.id,
    };
    if (error) {
      reply.log.error({ ...line, err: error }, 'request failed');
      return;
    }
    this.lineLogger(request.server.log).info(
      { [this.requestIdLogLabel]: request.id, ...line },
      'request',
    );
  }

  private lineLogger(serviceLogger: FastifyBaseLogger): FastifyBaseLogger {
    let logger = this.lineLoggers.get(serviceLogger);
    if (!logger) {
      logger = serviceLogger.child({}, { redact: [] });
      this.lineLoggers.set(serviceLogger, logger);
    }
    return logger;
  }
}
