/**
 * Request bodies: JSON only, and only as UTF-8. Fastify's own parser decodes the bytes with
 * a replacement character for each invalid sequence, so a body with a stray 0xff byte in a
 * string would be stored with U+FFFD instead of what was sent; it is refused instead.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUtf8 } from 'node:buffer';
import { HttpProblem } from '../http-problem';

export function registerJsonBodies(app: FastifyInstance): void {
  // Anything that is not JSON is a 415, not a string handed to a handler.
  app.removeContentTypeParser('text/plain');
  // Fastify's JSON.parse, with its guard against __proto__ and constructor keys.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const parseUtf8Json: ContentTypeParser = (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(
        HttpProblem.of('invalid_request', 'The body is not valid UTF-8', {
          errors: [{ path: '', message: 'not valid UTF-8' }],
        }),
        undefined,
      );
      return;
    }
    parseJson(request, bytes.toString('utf8'), done);
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseUtf8Json);
  // JSON as text/plain, only where the contract says so (the events apps send with
  // navigator.sendBeacon or as a CORS simple request, with no preflight).
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (request, body, done) => {
    const config = request.routeOptions.config as { plainTextJson?: boolean };
    if (config.plainTextJson === true) return parseUtf8Json(request, body, done);
    done(HttpProblem.of('unsupported_media_type', 'Send the body as application/json'), undefined);
  });
}

type ContentTypeParser = (
  request: FastifyRequest,
  body: string | Buffer,
  done: (error: Error | null, body?: unknown) => void,
) => void;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes JSON sent as text/plain too (register-endpoint.ts sets it). */
    plainTextJson?: boolean;
  }
}
