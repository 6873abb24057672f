/**
 * Runs operations on PostgreSQL, awaiting each step: a write on one pooled connection in
 * BEGIN ... COMMIT, a read on whichever connection the pool lends. A lost connection becomes
 * a DatabaseUnavailable (a 503), and /health learns of every outcome.
 */
import { asDatabaseUnavailable } from '../database-unavailable';
import { DatabaseHealth } from '../health/database-health';
import { liveChangeNotice } from '../live-changes/live-changes-postgres';
import { inTransaction, type PostgresPool } from '../postgres-database';
import type { Executor, Op, Row } from './sql';

interface Queryable {
  query(text: string, values: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
}

const READ_ONLY_SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

export class PostgresExecutor implements Executor {
  readonly health: DatabaseHealth;

  constructor(
    private readonly pool: PostgresPool,
    /** Wakes this process's webhook senders after a commit that queued outbox messages. */
    private readonly outboxQueued: () => void,
  ) {
    this.health = new DatabaseHealth(() => pool.query('SELECT 1'));
  }

  read<T>(op: Op<T>): Promise<T> {
    return this.guarded(() => this.runOn(this.pool, op));
  }

  writeOne<T>(op: Op<T>): Promise<T> {
    return this.read(op);
  }

  snapshot<T>(op: Op<T>): Promise<T> {
    return this.guarded(() =>
      inTransaction(this.pool, (client) => this.runOn(client, op), READ_ONLY_SNAPSHOT),
    );
  }

  /** NOTIFY goes out with the commit (never for a rollback); the senders' wake after it. */
  write<T>(op: Op<T>): Promise<T> {
    return this.guarded(() => inTransaction(this.pool, (client) => this.runOn(client, op)));
  }

  private async guarded<T>(work: () => Promise<{ result: T; queued: boolean }>): Promise<T> {
    let done: { result: T; queued: boolean };
    try {
      done = await work();
      this.health.answered();
    } catch (error) {
      const unavailable = asDatabaseUnavailable(error);
      if (!unavailable) throw error;
      this.health.failed();
      throw unavailable;
    }
    if (done.queued) this.outboxQueued();
    return done.result;
  }

  private async runOn<T>(client: Queryable, op: Op<T>): Promise<{ result: T; queued: boolean }> {
    let queued = false;
    let step = op.next();
    while (!step.done) {
      const s = step.value;
      let answer: unknown;
      switch (s.kind) {
        case 'all':
        case 'get':
        case 'run': {
          const { rows, rowCount } = await client.query(s.sql.postgres, s.params);
          answer = s.kind === 'all' ? rows : s.kind === 'get' ? rows[0] : (rowCount ?? 0);
          break;
        }
        case 'liveChanged': {
          const notice = liveChangeNotice(s.accountId);
          await client.query(notice.text, notice.values);
          break;
        }
        case 'outboxQueued':
          queued = true;
          break;
        case 'lookupChanged':
          break; // nothing is memoised: another instance may write at any moment
        case 'call':
          answer = await s.work(async (nested) => {
            const done = await this.runOn(client, nested);
            queued ||= done.queued;
            return done.result;
          });
          break;
      }
      step = op.next(answer);
    }
    return { result: step.value, queued };
  }
}
