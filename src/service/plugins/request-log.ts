/**
 * One structured log line per request (pino through Fastify): method, URL, status, time and
 * the key's id, never the Authorization header or a secret.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactSecrets } from '../domain/api-key-secrets';

export class OneLinePerRequest extends LogController {
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
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.info(line, 'request');
  }
}
