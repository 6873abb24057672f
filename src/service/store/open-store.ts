/**
 * Which store the service and the command line use: PostgreSQL when `DATABASE_URL` names
 * one (several instances may share it), else SQLite in the data directory (the default).
 */
import { openDatabase } from './database';
import { openPostgres } from './postgres-database';
import { PostgresStore } from './postgres-store';
import { SqliteStore } from './sqlite-store';
import type { Store } from './store';

export interface StoreLocation {
  readonly dataDir: string;
  /** `postgres://...`; when set, the data directory is not used for data. */
  readonly databaseUrl?: string | undefined;
  readonly databasePoolSize?: number | undefined;
}

export async function openStore(location: StoreLocation): Promise<Store> {
  if (location.databaseUrl) {
    return new PostgresStore(
      await openPostgres({
        url: location.databaseUrl,
        ...(location.databasePoolSize ? { poolSize: location.databasePoolSize } : {}),
      }),
    );
  }
  return new SqliteStore(openDatabase(location.dataDir));
}

/** Where the data is, for people: the URL without its password, or the data directory. */
export function describeStore(location: StoreLocation): string {
  if (!location.databaseUrl) return location.dataDir;
  const url = new URL(location.databaseUrl);
  if (url.password) url.password = '***';
  return url.toString();
}
