// Writes a brotli (.br) and a gzip (.gz) copy beside each compressible file of the built
// console's hashed assets (dist/assets/), at the strongest settings: done once per build,
// the service then sends them as they are (@fastify/static's preCompressed) instead of
// compressing on every request. Run by `npm run build` after `vite build`.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Formats worth compressing (text, and Monaco's TrueType icon font); PNG, WOFF2 are not. */
export const COMPRESSIBLE_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.svg',
  '.json',
  '.html',
  '.txt',
  '.ttf',
  '.wasm',
]);
/** Below this, the headers a compressed answer adds outweigh what it saves. */
export const MIN_BYTES = 1024;

/**
 * Compresses the files of `dir` (recursively) and returns the names written. A copy that
 * would not be smaller is not written; copies left by an earlier build are replaced.
 */
export function precompress(dir) {
  const written = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      written.push(...precompress(path));
      continue;
    }
    if (!COMPRESSIBLE_EXTENSIONS.has(extname(entry.name))) continue;
    if (statSync(path).size < MIN_BYTES) continue;
    const content = readFileSync(path);
    const copies = {
      '.br': brotliCompressSync(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      '.gz': gzipSync(content, { level: 9 }),
    };
    for (const [extension, compressed] of Object.entries(copies)) {
      const target = path + extension;
      if (compressed.length < content.length) {
        writeFileSync(target, compressed);
        written.push(target);
      } else {
        rmSync(target, { force: true });
      }
    }
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'dist/assets';
  const written = precompress(dir);
  console.log(`precompress: ${written.length} files written in ${dir}`);
}
