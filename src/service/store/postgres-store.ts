/**
 * The Store on PostgreSQL (node-postgres), for several service instances on one database.
 * Units of work lock their account's row first, so one account's edits serialise across
 * instances as SQLite's single writer serialises them; nothing is memoised, since another
 * instance may publish or revoke at any moment and the next request must see it.
 */
import type { DatabaseState } from './health/database-health';
import { listenerClientFor, PostgresLiveChanges } from './live-changes/live-changes-postgres';
import type { PostgresPool } from './postgres-database';
import { TextMemo } from './configs/stored-text';
import { unitOfWork } from './configs/unit-of-work';
import { PostgresExecutor } from './sql/postgres-executor';
import { SqlStore } from './sql-store';
import type { ConfigReads, LockedConfigTransaction } from './store';

export class PostgresStore extends SqlStore {
  protected readonly db: PostgresExecutor;
  readonly liveChanges: PostgresLiveChanges;

  protected readonly labelIndex = 'unordered' as const;
  constructor(
    private readonly pool: PostgresPool,
    texts = new TextMemo(),
  ) {
    super(texts);
    this.db = new PostgresExecutor(pool, () => this.outboxQueued.notify());
    this.liveChanges = new PostgresLiveChanges(listenerClientFor(pool));
  }

  /** Holds a connection and the account's lock while `work` waits (for the edit pool). */
  changeConfigsWhileLocked<T>(
    accountId: string,
    reads: ConfigReads,
    work: (tx: LockedConfigTransaction) => Promise<T>,
  ): Promise<T> {
    return this.db.write(unitOfWork(accountId, reads, work, this.texts));
  }

  /** pg_trgm's GIN index keeps itself (its pending list is flushed by autovacuum). */
  mergeLabelIndex(): Promise<boolean> {
    return Promise.resolve(false);
  }

  checkHealth(): Promise<DatabaseState> {
    return this.db.health.check();
  }

  async close(): Promise<void> {
    await this.liveChanges.close();
    await this.pool.end();
  }
}
