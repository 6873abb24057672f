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
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { API_BASE_PATH } from '../../contract/endpoints';
import { problemOf } from '../../contract/problem';
import { sendProblem } from './error-handler';

export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const PAGE_CACHE_CONTROL = 'no-cache';

export async function registerConsole(
  app: FastifyInstance,
  consoleDir: string | undefined,
  serveSourceMaps = false,
): Promise<void> {
  const hasConsole = consoleDir !== undefined && existsSync(join(consoleDir, 'index.html'));
  if (hasConsole) {
    // Without the wildcard, a route per file found at start-up: a file left out is a 404.
    const assetsDir = join(consoleDir, 'assets') + sep;
    await app.register(fastifyStatic, {
      root: consoleDir,
      wildcard: false,
      index: 'index.html',
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header(
          'cache-control',
          path.startsWith(assetsDir) ? ASSET_CACHE_CONTROL : PAGE_CACHE_CONTROL,
        );
      },
      // The compressed copies are found beside their file, not served under their own names.
      globIgnore: ['**/*.br', '**/*.gz', ...(serveSourceMaps ? [] : ['**/*.map'])],
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      hasConsole &&
      request.method === 'GET' &&
      !request.url.startsWith(`${API_BASE_PATH}/`) &&
      (request.headers.accept ?? '').includes('text/html');
    if (isPage) return reply.type('text/html').sendFile('index.html');
    return sendProblem(
      reply,
      problemOf('not_found', `There is no ${request.method} ${request.url.split('?')[0] ?? ''}`),
    );
  });
}
