/**
 * A deleted webhook endpoint never keeps a pending message (both stores): no sender claims
 * one, so it would wait forever. A retry that passed its check before the delete, and (on
 * PostgreSQL) a publish whose unit of work read the endpoints before the delete committed,
 * must both end with the endpoint's messages failed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDelivery } from '../domain/webhook-records';
import { testStoreKind } from '../testing/test-store';
import { openEndpointToDelete, T0, type EndpointToDelete } from '../testing/endpoint-to-delete';

let fixture: EndpointToDelete;

beforeEach(async () => {
  fixture = await openEndpointToDelete();
});
afterEach(async () => {
  await fixture.database.dispose();
});

describe(`deleting a fixture.webhook endpoint (${testStoreKind()})`, () => {
  it('refuses to retry a message of an endpoint deleted after the retry was checked', async () => {
    const message = { ...testDelivery(fixture.webhook, T0), status: 'failed' as const };
    await fixture.database.store.insertOutboxMessage({ ...message, next_attempt_at: null });
    // The domain found the endpoint; the delete commits before the retry's transaction.
    expect(
      await fixture.database.store.deleteWebhook(
        fixture.accountId,
        fixture.webhook.id,
        T0,
        fixture.audit('delete'),
      ),
    ).toBe(true);
    const outcome = await fixture.database.store.retryOutboxMessage(
      fixture.accountId,
      fixture.webhook.id,
      message.id,
      T0,
    );
    expect(outcome.kind).toBe('not_found');
    expect(await fixture.pendingOfEndpoint()).toBe(0);
  });
});
