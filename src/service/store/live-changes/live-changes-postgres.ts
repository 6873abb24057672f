/**
 * Live changes on PostgreSQL, across instances: a unit of work that changes what apps read
 * sends `pg_notify` in its own transaction (so the word goes out on commit, and never for a
 * rollback), and each instance LISTENs on a connection of its own while anyone listens. That
 * connection is opened again after a loss (a restart, a failover, a killed backend), with
 * growing waits; once it listens again, `null` is announced, since what was committed while
 * it was away is unknown.
 */
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, type PostgresPool } from '../postgres-database';
import { LiveChangeListeners, type LiveChangeListener, type LiveChanges } from './live-changes';

export const LIVE_CHANGES_CHANNEL = 'provisioning_live_changes';

/** The statement a unit of work adds to announce `accountId` on commit. */
export function liveChangeNotice(accountId: string): { text: string; values: unknown[] } {
  return { text: 'SELECT pg_notify($1, $2)', values: [LIVE_CHANGES_CHANNEL, accountId] };
}

/** The LISTEN connection's name in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'provisioning live changes';

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

/** A connection outside the pool: a pooled one is handed back and reused by others. */
export function listenerClientFor(pool: PostgresPool): () => pg.Client {
  return () =>
    new pg.Client({
      connectionString: pool.options.connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
}

export class PostgresLiveChanges implements LiveChanges {
  private readonly listeners: LiveChangeListeners;
  private client: pg.Client | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private ready = false;
  private closed = false;

  constructor(private readonly newClient: () => pg.Client) {
    this.listeners = new LiveChangeListeners({
      start: () => void this.connect(),
      stop: () => void this.disconnect(),
    });
  }

  subscribe(listener: LiveChangeListener): () => void {
    return this.listeners.subscribe(listener);
  }

  /** Resolves once the connection listens (tests); false when nobody listens or it is closed. */
  async listening(timeoutMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.ready) return true;
      if (this.closed || this.listeners.size === 0) return false;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return false;
  }

  close(): Promise<void> {
    this.closed = true;
    return this.disconnect();
  }

  private async connect(): Promise<void> {
    if (this.closed || this.client || this.listeners.size === 0) return;
    const client = this.newClient();
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === LIVE_CHANGES_CHANNEL)
        this.listeners.announce(message.payload || null);
    });
    // Without an `error` listener, a lost connection would end the process.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANGES_CHANNEL}`);
    } catch {
      this.lost(client);
      return;
    }
    if (this.client !== client) return;
    this.ready = true;
    this.retryMs = FIRST_RETRY_MS;
    // What was committed before this connection listened is unknown.
    this.listeners.announce(null);
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.ready = false;
    client.end().catch(() => undefined);
    if (this.closed || this.listeners.size === 0) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private async disconnect(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const client = this.client;
    this.client = undefined;
    this.ready = false;
    await client?.end().catch(() => undefined);
  }
}
