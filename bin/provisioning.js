#!/usr/bin/env node
// The operator's command line. It runs the service's bundle (`npm run build` makes it:
// scripts/build-server.mjs) while the bundle is newer than every source file it is made of;
// otherwise the TypeScript itself through tsx's loader, so that the repository always runs
// as checked out and an edit is never shadowed by an old bundle.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = `${root}build/service/cli.mjs`;
const SOURCES = [
  'src/service',
  'src/config-cli',
  'src/contract',
  'src/configs',
  'package-lock.json',
];

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    newest = Math.max(newest, newestChange(`${path}/${entry}`));
  }
  return newest;
}

function bundleIsCurrent() {
  if (!existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  return SOURCES.every((source) => newestChange(`${root}${source}`) < built);
}

let main;
if (bundleIsCurrent()) {
  process.setSourceMapsEnabled(true);
  ({ main } = await import(bundle));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/service/cli.ts'));
}
const code = await main(process.argv.slice(2));
// `serve` keeps running; every other command is done.
if (process.argv[2] !== 'serve') process.exit(code);
else if (code !== 0) process.exit(code);
