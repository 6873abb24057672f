/**
 * A throwaway PostgreSQL cluster for the tests: Debian's `postgresql` binaries, a data
 * directory in the system's temp directory, loopback only, trust authentication for the one
 * role it creates. PostgreSQL refuses to run as root, so as root (CI) the server runs as the
 * `postgres` user that Debian's package creates. fsync is off (the tests check concurrency
 * and behaviour, and the cluster is deleted afterwards), but a commit still waits for its
 * log record to be written: the secrets test reads the files right after. Test-only.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PostgresCluster {
  /** A URL of the cluster's `postgres` database, as the cluster's only role. */
  readonly url: string;
  readonly dataDir: string;
  /** Stops the server and deletes the cluster. */
  stop(): void;
  /**
   * Stops the server and keeps the cluster, as an outage would: `fast` ends every session
   * first, `immediate` drops them. `startServer` brings it back on the same port.
   */
  stopServer(mode?: 'fast' | 'immediate'): void;
  startServer(): void;
}

const ROLE = 'provisioning';

export const INSTALL_HINT =
  "The PostgreSQL tests need Debian's postgresql (initdb, pg_ctl). Install it with: sudo apt-get install -y postgresql";

/** The newest installed PostgreSQL's bin directory (PG_BIN_DIR wins). */
export function postgresBinDir(): string | undefined {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(INSTALL_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'provisioning-pg-'));
  const dataDir = join(dir, 'data');
  const asServerUser = (command: string, args: string[]) => {
    const [file, fileArgs] = isRoot()
      ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    execFileSync(file, fileArgs, { stdio: 'pipe' });
  };
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  asServerUser('initdb', [
    '-D',
    dataDir,
    '-U',
    ROLE,
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  const startServer = () =>
    asServerUser('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      join(dir, 'server.log'),
      '-o',
      settings,
      '-w',
      'start',
    ]);
  startServer();
  const url = `postgres://${ROLE}@127.0.0.1:${port}/postgres`;
  // An extension belongs to the database, and the tests' schemas share this one: made here
  // once, in public, so that schemas migrating at the same time find it and dropping one of
  // them does not take it (and every other schema's label index) along.
  await adminQuery(url, 'CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  return {
    url,
    dataDir,
    stopServer(mode = 'fast') {
      asServerUser('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
    },
    startServer,
    stop() {
      try {
        asServerUser('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** `url` with its database replaced, or with a schema as every connection's search_path. */
export function withDatabase(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next.toString();
}

export function withSchema(url: string, schema: string): string {
  const next = new URL(url);
  next.searchParams.set('options', `-c search_path=${schema}`);
  return next.toString();
}

/** Runs one statement as the cluster's role on its `postgres` database. */
export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh, unique name for a schema or database of one test. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}
