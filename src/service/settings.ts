/** The service's settings from the environment (quality.md), with their defaults. */
import { DEFAULT_EDIT_POOL, type EditPoolSettings } from './edit-work/edit-pool';
import type { RateLimitSettings } from './plugins/rate-limit';

export interface ServiceSettings {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** PostgreSQL instead of SQLite: `postgres://user:password@host:port/database`. */
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  readonly rateLimit: RateLimitSettings;
  readonly editPool: EditPoolSettings;
}

function databaseUrlFrom(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw))
    throw new Error('DATABASE_URL must be a postgres:// URL (unset it to use SQLite in DATA_DIR)');
  return raw;
}

function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a number >= 0, got "${raw}"`);
  return value;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceSettings {
  return {
    port: numberFrom(env, 'PORT', 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl: databaseUrlFrom(env),
    databasePoolSize: numberFrom(env, 'DATABASE_POOL_SIZE', 10),
    rateLimit: {
      rps: numberFrom(env, 'RATE_LIMIT_RPS', 50),
      burst: numberFrom(env, 'RATE_LIMIT_BURST', 200),
    },
    editPool: {
      ...DEFAULT_EDIT_POOL,
      workers: Math.max(1, numberFrom(env, 'EDIT_WORKERS', DEFAULT_EDIT_POOL.workers)),
      cacheBytes:
        numberFrom(env, 'EDIT_CACHE_MB', DEFAULT_EDIT_POOL.cacheBytes / 2 ** 20) * 2 ** 20,
    },
  };
}
