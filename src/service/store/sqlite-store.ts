/**
 * The Store on SQLite (better-sqlite3): SqlStore on a synchronous executor, and the answers
 * every request asks for (principals, delivery keys) without a promise, memoised until the
 * database changes: `PRAGMA data_version` for other connections' commits, and the count of
 * this connection's own writes, which data_version does not count.
 */
import { PRINCIPAL_BY_HASH, toPrincipal } from './api-keys/api-keys';
import { DELIVERY_KEY, toDeliveryKeyLookup } from './client-keys/client-keys';
import { TextMemo } from './configs/stored-text';
import type { SqliteDatabase } from './database';
import { hasAccounts } from './accounts/accounts';
import type { DatabaseState } from './health/database-health';
import { SqliteLiveChanges } from './live-changes/live-changes-sqlite';
import type { DeliveryKeyLookup, KeyPrincipal } from './records';
import { mergeLabelIndex } from './retention/retention';
import { RecentReading } from './sql/recent-reading';
import { sql, type Row } from './sql/sql';
import { SqliteExecutor } from './sql/sqlite-executor';
import { VersionedMemo } from './sql/versioned-memo';
import { SqlStore } from './sql-store';

/** Answers kept at most in each memo; a memo is emptied when full. */
const MEMO_LIMIT = 1_000;
/**
 * How stale another process's commit may look to a delivery read: a quarter of a
 * millisecond, under a loopback round trip. This process's own writes count at once.
 */
export const DELIVERY_VERSION_WINDOW_MS = 0.25;
/**
 * How stale another process's commit (the command line revoking a key) may look to an
 * API request's key lookup: one millisecond, as decided for the API's hot path.
 */
export const PRINCIPAL_VERSION_WINDOW_MS = 1;

const DATA_VERSION = sql('PRAGMA data_version');

export class SqliteStore extends SqlStore {
  protected readonly db: SqliteExecutor;
  readonly liveChanges: SqliteLiveChanges;
  private readonly dataVersion: () => number;
  private readonly principalByHash;
  private readonly deliveryKey;
  private readonly principals = new VersionedMemo<KeyPrincipal>(MEMO_LIMIT);
  private readonly deliveryKeys = new VersionedMemo<DeliveryKeyLookup>(MEMO_LIMIT);
  /** Polled delivery URLs are the hottest path, and reading data_version most of its cost. */
  private readonly deliveryDataVersion: RecentReading<number>;
  private readonly principalDataVersion: RecentReading<number>;

  /** FTS5 reads a label's matches in rowid order; pg_trgm hands them over unordered. */
  protected readonly labelIndex = 'newest_first' as const;
  constructor(
    private readonly database: SqliteDatabase,
    texts = new TextMemo(),
  ) {
    super(texts);
    this.db = new SqliteExecutor(database, {
      liveChanged: (accountId) => this.liveChanges.committed(accountId),
      outboxQueued: () => this.outboxQueued.notify(),
    });
    const dataVersion = this.db.statement(DATA_VERSION).pluck();
    this.dataVersion = () => dataVersion.get() as number;
    this.liveChanges = new SqliteLiveChanges(this.dataVersion);
    this.deliveryDataVersion = new RecentReading(this.dataVersion, DELIVERY_VERSION_WINDOW_MS);
    this.principalDataVersion = new RecentReading(this.dataVersion, PRINCIPAL_VERSION_WINDOW_MS);
    this.principalByHash = this.db.statement(PRINCIPAL_BY_HASH);
    this.deliveryKey = this.db.statement(DELIVERY_KEY);
  }

  override async findPrincipalByKeyHash(keyHash: string): Promise<KeyPrincipal | undefined> {
    return this.findPrincipalByKeyHashNow(keyHash);
  }

  /**
   * A key revoked through this store fails on the very next request; revoked by another
   * process (the command line), within PRINCIPAL_VERSION_WINDOW_MS.
   */
  findPrincipalByKeyHashNow(keyHash: string): KeyPrincipal | undefined {
    const version = this.principalDataVersion.get();
    const writes = this.db.lookupWrites.principals;
    return this.principals.get(keyHash, version, writes, this.readPrincipal);
  }

  /** `last_used_at` changes one field of a remembered principal: updated, not forgotten. */
  override async touchApiKey(id: string, at: string): Promise<void> {
    await super.touchApiKey(id, at);
    this.principals.updateEach((principal) =>
      principal.key.id === id
        ? { ...principal, key: { ...principal.key, last_used_at: at } }
        : principal,
    );
  }

  private readonly readPrincipal = (keyHash: string): KeyPrincipal | undefined => {
    const row = this.principalByHash.get(keyHash) as Row | undefined;
    return row && toPrincipal(row);
  };

  override async findDeliveryKey(key: string): Promise<DeliveryKeyLookup | undefined> {
    return this.findDeliveryKeyNow(key);
  }

  /** Another process's publish or revoke shows within DELIVERY_VERSION_WINDOW_MS. */
  findDeliveryKeyNow(key: string): DeliveryKeyLookup | undefined {
    const version = this.deliveryDataVersion.get();
    const writes = this.db.lookupWrites.deliveryKeys;
    return this.deliveryKeys.get(key, version, writes, this.readDeliveryKey);
  }

  private readonly readDeliveryKey = (key: string): DeliveryKeyLookup | undefined => {
    const row = this.deliveryKey.get(key) as Row | undefined;
    return row && toDeliveryKeyLookup(row);
  };

  /** A read of the file: in WAL mode it does not wait for a writer, so it answers at once. */
  mergeLabelIndex(pages: number): Promise<boolean> {
    return this.db.writeOne(mergeLabelIndex(pages));
  }

  async checkHealth(): Promise<DatabaseState> {
    try {
      this.db.readNow(hasAccounts());
      return 'ok';
    } catch {
      return 'unavailable';
    }
  }

  async close(): Promise<void> {
    this.liveChanges.close();
    this.database.close();
  }
}
