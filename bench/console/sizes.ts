/** The console's sizes: the JS before the editor (gzip) and dist/ (docs/benchmarks.md). */
import { fileURLToPath } from 'node:url';
import {
  directoryBytes,
  DIST_BUDGET,
  initialJsGzipBytes,
  INITIAL_JS_BUDGET,
} from '../lib/bundle-size';
import { judged, KIB, MIB, round, type Figure } from '../lib/figures';

export const DIST_DIR = fileURLToPath(new URL('../../dist', import.meta.url));

export function benchSizes(): Figure[] {
  return [
    judged(
      'console: initial JS before the editor (gzip)',
      round(initialJsGzipBytes(DIST_DIR) / KIB, 1),
      'KiB',
      { max: INITIAL_JS_BUDGET / KIB, text: '≤ 120 KiB' },
    ),
    judged('console: dist/ size', round(directoryBytes(DIST_DIR) / MIB, 2), 'MiB', {
      max: DIST_BUDGET / MIB,
      text: '≤ 8 MiB',
    }),
  ];
}
