/**
 * Statements and store operations, written once for both dialects. An operation is a
 * generator that yields its steps (a statement, a word to announce after commit) and is
 * handed each statement's rows: the SQLite executor drives it synchronously inside one
 * better-sqlite3 transaction, the PostgreSQL executor awaits each step on one connection.
 */

export type Row = Record<string, unknown>;

/** A statement's text in each dialect; both are written with `?` placeholders. */
export interface Sql {
  readonly sqlite: string;
  readonly postgres: string;
}

/** A statement both dialects read alike. */
export function sql(text: string): Sql {
  return { sqlite: text, postgres: numberPlaceholders(text) };
}

/** A statement whose dialects differ (booleans, locks, JSON functions): both texts here. */
export function dialects(texts: { readonly sqlite: string; readonly postgres: string }): Sql {
  return { sqlite: texts.sqlite, postgres: numberPlaceholders(texts.postgres) };
}

/**
 * `?` to PostgreSQL's `$1..$n`, in order. A `?` inside a quoted string literal or identifier
 * is text, not a placeholder, and is left alone.
 */
export function numberPlaceholders(text: string): string {
  let n = 0;
  let quote: string | undefined;
  let out = '';
  for (const char of text) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      out += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      out += char;
    } else if (char === '?') {
      out += `$${++n}`;
    } else {
      out += char;
    }
  }
  return out;
}

/** What an operation asks of its executor. */
export type Step =
  | { readonly kind: 'all' | 'get' | 'run'; readonly sql: Sql; readonly params: unknown[] }
  /** Announce after commit that what `accountId`'s apps read changed (PostgreSQL: NOTIFY). */
  | { readonly kind: 'liveChanged'; readonly accountId: string }
  /** Wake this process's webhook senders after commit. */
  | { readonly kind: 'outboxQueued' }
  /** The write changes what a memoised key lookup answers (SQLite memoises them). */
  | { readonly kind: 'lookupChanged'; readonly lookup: KeyLookup }
  /** Call back into the caller's code (a unit of work) inside the transaction. */
  | { readonly kind: 'call'; readonly work: (nested: Nested) => unknown };

/**
 * Runs another operation inside the caller's transaction, on its connection: what a unit of
 * work that waits (PostgreSQL) reads meanwhile, since a second pooled connection might never
 * come while every connection is held by such a unit.
 */
export type Nested = <R>(op: Op<R>) => Promise<R>;

export type Op<T> = Generator<Step, T, unknown>;

/** Every row of a query. */
export function* all(statement: Sql, ...params: unknown[]): Op<Row[]> {
  return (yield { kind: 'all', sql: statement, params }) as Row[];
}

/** The first row of a query, if any. */
export function* get(statement: Sql, ...params: unknown[]): Op<Row | undefined> {
  return (yield { kind: 'get', sql: statement, params }) as Row | undefined;
}

/** Runs a write; how many rows it changed. */
export function* run(statement: Sql, ...params: unknown[]): Op<number> {
  return (yield { kind: 'run', sql: statement, params }) as number;
}

export function* liveChanged(accountId: string): Op<void> {
  yield { kind: 'liveChanged', accountId };
}

export function* outboxQueued(): Op<void> {
  yield { kind: 'outboxQueued' };
}

/** The key lookups a store may memoise: API keys' principals, client keys with live stamps. */
export type KeyLookup = 'principals' | 'deliveryKeys';

export function* lookupChanged(lookup: KeyLookup): Op<void> {
  yield { kind: 'lookupChanged', lookup };
}

/** `work`'s result: at once on SQLite, awaited on PostgreSQL. */
export function* call<T>(work: (nested: Nested) => T | Promise<T>): Op<T> {
  return (yield { kind: 'call', work }) as T;
}

/** What a store runs its operations on. */
export interface Executor {
  /** Reads, each statement on its own. */
  read<T>(op: Op<T>): Promise<T>;
  /** Reads that must see one state of the database (PostgreSQL: one snapshot). */
  snapshot<T>(op: Op<T>): Promise<T>;
  /** One transaction: all of it commits, or none; its announcements follow the commit. */
  write<T>(op: Op<T>): Promise<T>;
  /** A write of one statement: PostgreSQL sends it without BEGIN and COMMIT. */
  writeOne<T>(op: Op<T>): Promise<T>;
}

/** The named columns of a row: a record whose columns need no conversion. */
export function pick<R>(row: Row, columns: readonly string[]): R {
  const record: Row = {};
  for (const column of columns) record[column] = row[column] ?? null;
  return record as R;
}

/** `INSERT INTO table (columns) VALUES (?, ...)`, for `valuesOf(record, columns)`. */
export function insertInto(table: string, columns: readonly string[]): Sql {
  return sql(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
}

/** A record's values in the order of `columns`. */
export function valuesOf(record: object, columns: readonly string[]): unknown[] {
  return columns.map((column) => (record as Row)[column]);
}
