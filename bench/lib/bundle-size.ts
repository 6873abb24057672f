/**
 * Sizes of the built console (dist/): what index.html loads before anything else (its
 * module script and the modules it preloads: the first page, before the editor), gzipped
 * as a server would send it, and the whole of dist/. Used by `npm run bench` and by the
 * size check in `npm test` (e2e/bundle-size.spec.ts, which runs after the build).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The console's size budgets, in bytes (docs/benchmarks.md). */
export const INITIAL_JS_BUDGET = 120 * 1024;
export const DIST_BUDGET = 8 * 1024 * 1024;

/** The scripts index.html loads: its module entry and its modulepreload links. */
export function initialScripts(distDir: string): string[] {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script[^>]*\ssrc="\/([^"]+\.js)"/g)].map((m) => m[1]);
  const preloads = [
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+\.js)"/g),
  ].map((m) => m[1]);
  return [...scripts, ...preloads].filter((file): file is string => file !== undefined);
}

export function gzipSize(path: string): number {
  return gzipSync(readFileSync(path), { level: 9 }).length;
}

export function initialJsGzipBytes(distDir: string): number {
  return initialScripts(distDir).reduce((sum, file) => sum + gzipSize(join(distDir, file)), 0);
}

/** The build's compressed copies of its assets (scripts/precompress.mjs). */
export const PRECOMPRESSED = /\.(br|gz)$/;

/**
 * The bytes of a directory's files, without the compressed copies beside the assets: they
 * are the same files again, stored for the server's sake (counted by `precompressedBytes`).
 */
export function directoryBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sum + directoryBytes(path);
    return sum + (PRECOMPRESSED.test(entry.name) ? 0 : statSync(path).size);
  }, 0);
}

/** The bytes of the compressed copies alone. */
export function precompressedBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sum + precompressedBytes(path);
    return sum + (PRECOMPRESSED.test(entry.name) ? statSync(path).size : 0);
  }, 0);
}
