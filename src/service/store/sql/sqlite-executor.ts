/**
 * Runs operations on SQLite, synchronously: a transaction of better-sqlite3 must not wait,
 * so the whole operation runs inside it in one turn (`BEGIN IMMEDIATE`: two processes never
 * deadlock upgrading a read lock). Each statement is prepared once, on first use.
 */
import type Database from 'better-sqlite3';
import type { SqliteDatabase } from '../database';
import type { Executor, KeyLookup, Op, Sql } from './sql';

/** What a write announces once it has committed. */
export interface SqliteAnnouncements {
  liveChanged(accountId: string): void;
  outboxQueued(): void;
}

export class SqliteExecutor implements Executor {
  private readonly prepared = new Map<Sql, Database.Statement>();
  /**
   * This connection's writes that changed what each memoised lookup answers (`PRAGMA
   * data_version` does not count a connection's own): a webhook claim or `last_used_at`
   * leaves the memos as they are.
   */
  readonly lookupWrites: Record<KeyLookup, number> = { principals: 0, deliveryKeys: 0 };

  constructor(
    private readonly db: SqliteDatabase,
    private readonly announce: SqliteAnnouncements,
  ) {}

  /** The statement, prepared on this connection once. */
  statement(sql: Sql): Database.Statement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql.sqlite);
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  async read<T>(op: Op<T>): Promise<T> {
    return this.runNow(op);
  }

  /** A read one connection answers at once: no other statement comes between its own. */
  async snapshot<T>(op: Op<T>): Promise<T> {
    return this.runNow(op);
  }

  readNow<T>(op: Op<T>): T {
    return this.runNow(op);
  }

  async write<T>(op: Op<T>): Promise<T> {
    return this.writeNow(op);
  }

  async writeOne<T>(op: Op<T>): Promise<T> {
    return this.writeNow(op);
  }

  /** The operation in one transaction, then what it announces. */
  writeNow<T>(op: Op<T>): T {
    const live: string[] = [];
    let queued = false;
    const changed = new Set<KeyLookup>();
    const held: SqliteAnnouncements = {
      liveChanged: (accountId) => live.push(accountId),
      outboxQueued: () => (queued = true),
    };
    let result: T;
    try {
      result = this.db.transaction(() => this.runNow(op, held, changed)).immediate();
    } finally {
      // A live change moves the delivery keys' live stamps.
      if (live.length > 0) changed.add('deliveryKeys');
      for (const lookup of changed) this.lookupWrites[lookup] += 1;
    }
    for (const accountId of live) this.announce.liveChanged(accountId);
    if (queued) this.announce.outboxQueued();
    return result;
  }

  /** Outside a transaction, announcements go out at once. */
  private runNow<T>(
    op: Op<T>,
    announce: SqliteAnnouncements = this.announce,
    changed = new Set<KeyLookup>(),
  ): T {
    let step = op.next();
    while (!step.done) {
      const s = step.value;
      let answer: unknown;
      switch (s.kind) {
        case 'all':
          answer = this.statement(s.sql).all(...sqliteValues(s.params));
          break;
        case 'get':
          answer = this.statement(s.sql).get(...sqliteValues(s.params));
          break;
        case 'run':
          answer = this.statement(s.sql).run(...sqliteValues(s.params)).changes;
          break;
        case 'liveChanged':
          announce.liveChanged(s.accountId);
          break;
        case 'outboxQueued':
          announce.outboxQueued();
          break;
        case 'lookupChanged':
          changed.add(s.lookup);
          break;
        case 'call':
          answer = s.work(async (nested) => this.runNow(nested, announce, changed));
          break;
      }
      step = op.next(answer);
    }
    return step.value;
  }
}

/** SQLite has no booleans: they are bound as 0 and 1. */
function sqliteValues(params: unknown[]): unknown[] {
  if (!params.some((value) => typeof value === 'boolean')) return params;
  return params.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
}
