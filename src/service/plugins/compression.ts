/**
 * API answers compressed for clients that accept it: JSON over 1 KiB (a config's YAML may
 * be 4 MiB), brotli at a low quality (4) so the CPU per answer stays small, or gzip. Only
 * the endpoints whose answers can be large take it: a route without it pays nothing (the
 * small, hot GET /auth/status). Event streams are never compressed: a compressor holds
 * their events back until its buffer fills.
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { constants } from 'node:zlib';

/** JSON and problem+json; not `text/event-stream`, nor anything else. */
export const COMPRESSIBLE_TYPES = /^application\/(?:[a-z0-9.+-]+\+)?json(?:;|$)/;

export function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE_TYPES.test(contentType);
}

/** The settings of a route that compresses (its `compress` option). */
export const API_COMPRESSION: Exclude<RouteOptions['compress'], false | undefined> = {
  threshold: 1024,
  encodings: ['br', 'gzip'],
  customTypes: COMPRESSIBLE_TYPES,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 6 },
};

export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Not global: routes opt in with `compress: API_COMPRESSION`; the others say `false`.
  await app.register(fastifyCompress, { ...API_COMPRESSION, global: false });
}
