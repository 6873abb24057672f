import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Browser tests drive Debian's Chromium (never a downloaded browser) against the real
// service, built and started on a data directory of its own that each run starts afresh.
//
// This module is evaluated by the runner and again by every worker. The runner chooses the
// port and the data directory once and puts them in the environment, which the web server,
// the global set-up and the workers inherit, so all of them agree.

const DATA_DIR_PREFIX = 'provisioning-e2e-';
const OWNER_FILE = 'e2e-runner.pid';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Data directories of earlier runs whose runner has exited: no server uses them any more. */
function removeAbandonedDataDirs(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(DATA_DIR_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    const ownerFile = join(dir, OWNER_FILE);
    if (!existsSync(ownerFile)) continue;
    const owner = Number(readFileSync(ownerFile, 'utf8'));
    if (Number.isInteger(owner) && owner > 0 && !isRunning(owner)) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

function freshDataDir(): string {
  removeAbandonedDataDirs();
  const dir = mkdtempSync(join(tmpdir(), DATA_DIR_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  return dir;
}

/** A port nobody listens on now, so runs in parallel (or a dev server) do not collide. */
function freePort(): string {
  return execFileSync(
    process.execPath,
    [
      '-e',
      "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); });",
    ],
    { encoding: 'utf8' },
  ).trim();
}

process.env.E2E_DATA_DIR ??= freshDataDir();
process.env.E2E_PORT ??= freePort();
const dataDir = process.env.E2E_DATA_DIR;
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
process.env.E2E_BASE_URL = baseURL;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `npm run build && node bin/provisioning.js serve --port ${port} --data-dir ${JSON.stringify(dataDir)}`,
    url: `${baseURL}/api/v1/health`,
    // WEBHOOKS_ALLOW_PRIVATE: the webhook journeys' receivers listen on 127.0.0.1.
    // PUBLIC_URL: SSO's redirect URI is on localhost, another site than the provider's
    // 127.0.0.1, as in production.
    env: {
      RATE_LIMIT_RPS: '0',
      LOG_LEVEL: 'warn',
      WEBHOOKS_ALLOW_PRIVATE: '1',
      PUBLIC_URL: `http://localhost:${port}`,
    },
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
