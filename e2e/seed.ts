/** What the global set-up creates and the tests read: one JSON file per run. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const SEED_FILE = join('test-results', 'e2e-seed.json');

export interface SeedKey {
  id: string;
  userId: string;
  name: string;
  secret: string;
  obfuscatedValue: string;
  permissions: string[];
  expiresAt: string | null;
  /** `GET /auth/status` for this key when it was created (null for the revoked one). */
  status: Record<string, unknown> | null;
}

export interface Seed {
  baseURL: string;
  account: { id: string; name: string };
  otherAccount: { id: string; name: string };
  /**
   * An account of its own for the config editor's journeys, which save drafts, publish and
   * make versions live: its live config changes under them, never under the other specs.
   */
  configsAccount: { id: string; name: string; liveConfigId: string };
  /** An account of its own for the A/B test journeys: every lifecycle step changes its live config. */
  abTestsAccount: { id: string; name: string };
  keys: Record<
    | 'admin'
    | 'editor'
    | 'viewer'
    | 'expiring'
    | 'revoked'
    | 'otherAccount'
    | 'configsAdmin'
    | 'configsEditor'
    | 'abAdmin'
    | 'abEditor'
    | 'abViewer',
    SeedKey
  >;
}

/** What `provisioning keys create` prints. */
export interface CreatedKey {
  id: string;
  user_id: string;
  name: string;
  secret: string;
  obfuscated_value: string;
  permissions: string[];
  expires_at: string | null;
}

/**
 * The operator's command line on this run's data directory (E2E_DATA_DIR, chosen by
 * playwright.config.ts), while the service runs on it. Returns the JSON it prints.
 */
export function provisioning(args: string[]): unknown {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('playwright.config.ts sets E2E_DATA_DIR');
  const stdout = execFileSync(
    process.execPath,
    ['bin/provisioning.js', ...args, '--data-dir', dataDir],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return JSON.parse(stdout);
}
