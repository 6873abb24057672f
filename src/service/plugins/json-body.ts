/**
 * Request bodies: JSON only, and only as UTF-8. Fastify's own parser decodes the bytes with
 * a replacement character for each invalid sequence, so a body with a stray 0xff byte in a
 * string would be stored with U+FFFD instead of what was sent; it is refused instead.
 */
import type { FastifyInstance } from 'fastify';
import { isUtf8 } from 'node:buffer';
import { HttpProblem } from '../http-problem';

export function registerJsonBodies(app: FastifyInstance): void {
  // Anything that is not JSON is a 415, not a string handed to a handler.
  app.removeContentTypeParser('text/plain');
  // Fastify's JSON.parse, with its guard against __proto__ and constructor keys.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
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
  });
}
