/**
 * A connection lost inside a transaction, made to happen at a known moment: another session
 * holds the account's row, the edit's transaction waits for it on its own connection, and
 * that connection's backend is terminated. The pool does not listen to a connection it has
 * handed out, so this is where an unhandled `error` event would end the process.
 */
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { CREATE_APP, edit, editOk, expectProblem, ok } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService | undefined;
let admin: pg.Client | undefined;

afterEach(async () => {
  await admin?.end();
  await service?.close();
  admin = undefined;
  service = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a PostgreSQL connection lost inside a transaction', () => {
  it('answers 503 with Retry-After, saves nothing of the edit, and the next edit goes through', async () => {
    const running = await startTestService();
    service = running;
    const draft = await editOk(running, running.adminKey, {
      operations: [CREATE_APP('first')],
      summary: 'the draft',
    });
    const [{ schema } = { schema: '' }] = await running.rows<{ schema: string }>(
      'SELECT current_schema() AS schema',
    );

    const session = new pg.Client({ connectionString: inject('postgresUrl') });
    admin = session;
    await session.connect();
    await session.query('BEGIN');
    await session.query(`SELECT 1 FROM ${schema}.accounts WHERE id = $1 FOR UPDATE`, [
      running.account.account_id,
    ]);

    const pending = edit(running, running.adminKey, {
      config_id: draft.id,
      operations: [CREATE_APP('second')],
      summary: 'add second',
    });
    // The edit's backend, waiting for the row this session holds: only it, whatever else
    // runs on the cluster.
    let terminated = 0;
    for (let attempt = 0; attempt < 1_000 && terminated === 0; attempt++) {
      const { rows } = await session.query<{ done: boolean }>(
        'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))',
      );
      terminated = rows.length;
      if (terminated === 0) await sleep(10);
    }
    expect(terminated).toBe(1);

    const refused = await pending;
    expectProblem(refused, 503, 'database_unavailable');
    expect(refused.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    await session.query('ROLLBACK');

    const after = await ok(running, running.adminKey, 'getConfig', { params: { id: draft.id } });
    expect(after.revision).toBe(1);
    expect(after.yaml).not.toContain('second');
    const added = await editOk(running, running.adminKey, {
      config_id: draft.id,
      operations: [CREATE_APP('second')],
      summary: 'add second',
    });
    expect(added.revision).toBe(2);
  });
});
