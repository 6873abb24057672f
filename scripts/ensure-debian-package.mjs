// The tests use programs from Debian's packages, never downloads: Chromium for the browser
// tests, PostgreSQL for the API suite's second store, nginx in front of the service, jq for
// the documented CI step that reads `config push --format json`.
// `node scripts/ensure-debian-package.mjs chromium|postgresql|nginx|jq ...`: when a package's
// program is missing and we run as root (CI, a fresh machine), install it with apt-get;
// otherwise say exactly what to install.
import { existsSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Whether each package's program is there (CHROMIUM_PATH, PG_BIN_DIR, NGINX_PATH override). */
const PACKAGES = {
  chromium: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
  postgresql: () => {
    if (process.env.PG_BIN_DIR) return existsSync(join(process.env.PG_BIN_DIR, 'initdb'));
    const root = '/usr/lib/postgresql';
    return (
      existsSync(root) &&
      readdirSync(root).some((version) => existsSync(join(root, version, 'bin', 'initdb')))
    );
  },
  nginx: () => existsSync(process.env.NGINX_PATH ?? '/usr/sbin/nginx'),
  jq: () => existsSync('/usr/bin/jq'),
};

const names = process.argv.slice(2);
if (names.length === 0 || names.some((name) => !PACKAGES[name])) {
  console.error(`usage: ensure-debian-package.mjs ${Object.keys(PACKAGES).join('|')} ...`);
  process.exit(2);
}

const missing = names.filter((name) => !PACKAGES[name]());
if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `The tests need Debian's ${missing.join(', ')}. Install with: sudo apt-get install -y ${missing.join(' ')}`,
    );
    process.exit(1);
  }
  console.log(`Installing Debian's ${missing.join(', ')} for the tests...`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
