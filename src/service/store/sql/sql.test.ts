import { describe, expect, it } from 'vitest';
import { dialects, insertInto, numberPlaceholders, sql } from './sql';

describe('numberPlaceholders', () => {
  it('numbers each ? in order', () => {
    expect(numberPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?)')).toBe(
      'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)',
    );
  });

  it('leaves a ? inside a quoted string literal or identifier alone', () => {
    expect(numberPlaceholders("SELECT '?', 'it''s ?' FROM t WHERE \"a?\" = ? AND b = ?")).toBe(
      "SELECT '?', 'it''s ?' FROM t WHERE \"a?\" = $1 AND b = $2",
    );
  });

  it('leaves text without placeholders as it is', () => {
    expect(numberPlaceholders("UPDATE t SET status = 'failed'")).toBe(
      "UPDATE t SET status = 'failed'",
    );
  });
});

describe('statements', () => {
  it('write one text for both dialects, numbered for PostgreSQL', () => {
    expect(sql('SELECT 1 WHERE a = ?')).toEqual({
      sqlite: 'SELECT 1 WHERE a = ?',
      postgres: 'SELECT 1 WHERE a = $1',
    });
  });

  it('keep two texts side by side where the dialects differ', () => {
    const statement = dialects({
      sqlite: 'SELECT ? FROM t',
      postgres: 'SELECT ? FROM t FOR UPDATE',
    });
    expect(statement.postgres).toBe('SELECT $1 FROM t FOR UPDATE');
    expect(statement.sqlite).toBe('SELECT ? FROM t');
  });

  it('insert the named columns', () => {
    expect(insertInto('t', ['a', 'b']).postgres).toBe('INSERT INTO t (a, b) VALUES ($1, $2)');
  });
});
