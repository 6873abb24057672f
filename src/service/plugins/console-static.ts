/**
 * Serves the built console (dist/) at `/`, with the SPA fallback: a GET for a page URL
 * (`/configs/abc`) that is no file answers index.html, so deep links and reloads work.
 * Unknown API routes and everything else answer a problem+json 404. The source maps
 * (`.map`) are left out unless `serveSourceMaps`: they would hand out the console's source.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { API_BASE_PATH } from '../../contract/endpoints';
import { problemOf } from '../../contract/problem';
import { sendProblem } from './error-handler';

export async function registerConsole(
  app: FastifyInstance,
  consoleDir: string | undefined,
  serveSourceMaps = false,
): Promise<void> {
  const hasConsole = consoleDir !== undefined && existsSync(join(consoleDir, 'index.html'));
  if (hasConsole) {
    // Without the wildcard, a route per file found at start-up: a file left out is a 404.
    await app.register(fastifyStatic, {
      root: consoleDir,
      wildcard: false,
      index: 'index.html',
      ...(serveSourceMaps ? {} : { globIgnore: ['**/*.map'] }),
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
