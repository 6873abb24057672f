/**
 * Serves the built console (dist/) at `/`, with the SPA fallback: a GET for a page URL
 * (`/configs/abc`) that is no file answers index.html, so deep links and reloads work.
 * Unknown API routes and everything else answer a problem+json 404. The source maps
 * (`.map`) are left out unless `serveSourceMaps`: they would hand out the console's source.
 *
 * Caching: the hashed assets (`/assets/*`; a new build gives a changed file a new name) are
 * cached for a year, `immutable`. Everything else (index.html, the SPA fallback, the
 * favicon) is `no-cache`: kept, but revalidated every time (ETag, Last-Modified; 304).
 * The build writes brotli and gzip copies beside the assets (scripts/precompress.mjs), sent
 * as they are to a client whose Accept-Encoding takes them (`Vary: Accept-Encoding`).
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { CONNECT_ORIGINS_META } from '../../contract/connect-origins';
import { API_BASE_PATH } from '../../contract/endpoints';
import { problemOf } from '../../contract/problem';
import { sendProblem } from './error-handler';

export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const PAGE_CACHE_CONTROL = 'no-cache';

/** index.html with the list of origins put in its head, and the ETag of that text. */
function pageWithConnectOrigins(indexHtml: string, origins: readonly string[]) {
  // Origins hold no quote or angle bracket (settings.ts checks each is a URL's origin).
  const meta = `<meta name="${CONNECT_ORIGINS_META}" content="${origins.join(' ')}" />`;
  const text = indexHtml.replace(/<head>/i, (head) => `${head}\n    ${meta}`);
  const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
  return { text, etag };
}

export async function registerConsole(
  app: FastifyInstance,
  consoleDir: string | undefined,
  serveSourceMaps = false,
  connectOrigins: readonly string[] = [],
): Promise<void> {
  const hasConsole = consoleDir !== undefined && existsSync(join(consoleDir, 'index.html'));
  // With other origins to name, index.html is served from memory with them in it.
  const page =
    hasConsole && connectOrigins.length > 0
      ? pageWithConnectOrigins(readFileSync(join(consoleDir, 'index.html'), 'utf8'), connectOrigins)
      : undefined;
  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    if (page === undefined) return reply.type('text/html').sendFile('index.html');
    reply.header('cache-control', PAGE_CACHE_CONTROL).header('etag', page.etag);
    if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
    return reply.code(200).type('text/html; charset=utf-8').send(page.text);
  };
  if (hasConsole) {
    // Without the wildcard, a route per file found at start-up: a file left out is a 404.
    const assetsDir = join(consoleDir, 'assets') + sep;
    await app.register(fastifyStatic, {
      root: consoleDir,
      wildcard: false,
      // `/` is a route of ours: the plugin's own, with preCompressed, looks for
      // index.html.gz and answers 404 to a client taking gzip when there is none.
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header(
          'cache-control',
          path.startsWith(assetsDir) ? ASSET_CACHE_CONTROL : PAGE_CACHE_CONTROL,
        );
      },
      // The compressed copies are found beside their file, not served under their own names.
      globIgnore: [
        '**/*.br',
        '**/*.gz',
        ...(serveSourceMaps ? [] : ['**/*.map']),
        ...(page ? ['index.html'] : []),
      ],
    });
    app.get('/', sendPage);
    if (page) app.get('/index.html', sendPage);
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      hasConsole &&
      request.method === 'GET' &&
      !request.url.startsWith(`${API_BASE_PATH}/`) &&
      (request.headers.accept ?? '').includes('text/html');
    if (isPage) return sendPage(request, reply);
    return sendProblem(
      reply,
      problemOf('not_found', `There is no ${request.method} ${request.url.split('?')[0] ?? ''}`),
    );
  });
}
