// Bundles the client library (src/client/, docs/client.md) into one ES module,
// build/client/provisioning-client.js, for browsers and Node >= 20, with its types beside it
// in provisioning-client.d.ts. It imports nothing: the assignment module is bundled in, and
// the contract's zod schemas never are (the client takes only types from the contract).
// The types are checked against the browser's library alone (no Node types).
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const outFile = 'build/client/provisioning-client.js';
const declarations = 'build/client/declarations';

await build({
  entryPoints: ['src/client/provisioning-client.ts'],
  outfile: outFile,
  bundle: true,
  platform: 'neutral',
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(declarations, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.client.json'], { stdio: 'inherit' });
copyFileSync(
  `${declarations}/client/provisioning-client.d.ts`,
  'build/client/provisioning-client.d.ts',
);
rmSync(declarations, { recursive: true, force: true });

// The public types are declared in the entry module so that its .d.ts stands alone.
const types = readFileSync('build/client/provisioning-client.d.ts', 'utf8');
if (/^\s*(import|export\s.*\sfrom)\s/m.test(types)) {
  throw new Error(
    'provisioning-client.d.ts refers to other modules: declare public types in the entry',
  );
}
console.log(`${outFile}: ${statSync(outFile).size} bytes`);
