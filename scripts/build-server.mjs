// Bundles the service (src/service/cli.ts and what it imports from src/) into
// build/service/cli.mjs: one module instead of about a hundred TypeScript files that tsx would
// transform on every start. A restart after a crash answers in well under the 2 s the
// reliability guarantees ask for (docs/reliability.md). Packages stay in node_modules.
// bin/provisioning.js runs the bundle while it is newer than every source file, else tsx.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/service/cli.ts'],
  // The same depth below the repository as src/service/, so that paths the service finds
  // relative to its own module (the console's dist/) resolve the same from both.
  outfile: 'build/service/cli.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
