// Bundles the service (src/service/cli.ts and what it imports from src/) into
// build/service/cli.mjs, and its edit worker into build/service/edit-worker.mjs: one module instead of about a hundred TypeScript files that tsx would
// transform on every start. A restart after a crash answers in well under the 2 s the
// reliability guarantees ask for (docs/reliability.md). Packages stay in node_modules.
// bin/provisioning.js runs the bundle while it is newer than every source file, else tsx.
import { build } from 'esbuild';

await build({
  // The edit pool's worker thread is a module of its own, found beside cli.mjs.
  entryPoints: {
    cli: 'src/service/cli.ts',
    'edit-worker': 'src/service/edit-work/edit-worker.ts',
  },
  // The same depth below the repository as src/service/, so that paths the service finds
  // relative to its own module (the console's dist/) resolve the same from both.
  outdir: 'build/service',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
