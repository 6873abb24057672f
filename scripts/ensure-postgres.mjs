// The API suite also runs on PostgreSQL, in a throwaway cluster that the tests start from
// Debian's postgresql binaries (src/service/testing/postgres-cluster.ts). When they are
// missing and we run as root (CI, a fresh machine), install them with apt-get; otherwise
// say what to install.
import { existsSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = '/usr/lib/postgresql';
const installed =
  (process.env.PG_BIN_DIR && existsSync(join(process.env.PG_BIN_DIR, 'initdb'))) ||
  (existsSync(root) &&
    readdirSync(root).some((version) => existsSync(join(root, version, 'bin', 'initdb'))));

if (!installed) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      "The PostgreSQL tests need Debian's postgresql (initdb, pg_ctl). Install it with: sudo apt-get install -y postgresql",
    );
    process.exit(1);
  }
  console.log('Installing Debian postgresql for the PostgreSQL tests...');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
