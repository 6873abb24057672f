/**
 * PostgreSQL: a publish whose unit of work read the endpoints before a delete committed ends
 * with the endpoint's messages failed, never one left pending (no sender claims a deleted
 * endpoint's message). The retry race, on both stores: webhook-deletion.test.ts.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEndpointToDelete, T0, type EndpointToDelete } from '../testing/endpoint-to-delete';
import { TextMemo } from './configs/stored-text';
import { unitOfWork } from './configs/unit-of-work';
import type { Op, Row } from './sql/sql';

let fixture: EndpointToDelete;

beforeEach(async () => {
  fixture = await openEndpointToDelete();
});
afterEach(async () => {
  await fixture.database.dispose();
});

describe('deleting a fixture.webhook endpoint while a publish commits', () => {
  it('fails the message a publish queues for an endpoint deleted while it commits', async () => {
    const client = new pg.Client({ connectionString: fixture.database.postgresUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      const op = unitOfWork(
        fixture.accountId,
        {},
        (tx) => {
          tx.addWebhookEvents('config.published', T0, () => ({ config_id: 'cfg_x' }));
        },
        new TextMemo(),
      );
      let deletion: Promise<boolean> | undefined;
      await drive(client, op, async (sqlText) => {
        if (deletion || !sqlText.startsWith('INSERT INTO webhook_deliveries')) return;
        // The unit has read the endpoint as live: the delete comes now, before the insert.
        deletion = fixture.database.store.deleteWebhook(
          fixture.accountId,
          fixture.webhook.id,
          T0,
          fixture.audit('delete'),
        );
        await Promise.race([deletion, waitingOn(client)]);
      });
      await client.query('COMMIT');
      expect(await deletion).toBe(true);
    } finally {
      await client.end();
    }
    expect(await fixture.pendingOfEndpoint()).toBe(0);
  });
});

/** Runs an operation on one connection, calling `before` ahead of each statement. */
async function drive<T>(
  client: pg.Client,
  op: Op<T>,
  before: (sqlText: string) => Promise<void>,
): Promise<T> {
  let step = op.next();
  while (!step.done) {
    const s = step.value;
    let answer: unknown;
    if (s.kind === 'all' || s.kind === 'get' || s.kind === 'run') {
      await before(s.sql.postgres);
      const { rows, rowCount } = await client.query<Row>(s.sql.postgres, s.params);
      answer = s.kind === 'all' ? rows : s.kind === 'get' ? rows[0] : (rowCount ?? 0);
    } else if (s.kind === 'call') {
      answer = await s.work((nested) => drive(client, nested, async () => undefined));
    }
    step = op.next(answer);
  }
  return step.value;
}

/** Resolves once another backend waits for a lock `client`'s transaction holds. */
async function waitingOn(client: pg.Client): Promise<void> {
  for (;;) {
    const { rows } = await client.query(
      `SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted
          AND transactionid::text = pg_current_xact_id()::text`,
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
