#!/usr/bin/env node
// The operator's command line. The service is TypeScript run through tsx's loader, so the
// repository runs as checked out, with no separate build of the server.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/service/cli.ts');
const code = await main(process.argv.slice(2));
// `serve` keeps running; every other command is done.
if (process.argv[2] !== 'serve') process.exit(code);
else if (code !== 0) process.exit(code);
