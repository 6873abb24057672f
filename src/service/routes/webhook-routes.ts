/** `/webhooks` and its deliveries (docs/webhooks.md). */
import type { FastifyInstance } from 'fastify';
import type { Webhooks } from '../domain/webhooks';
import { pagedList } from '../domain/pages';
import { CREATED_KEY } from '../store/sql/keyset';
import { registerEndpoint } from './register-endpoint';

export function registerWebhookRoutes(app: FastifyInstance, webhooks: Webhooks): void {
  const pages = pagedList('webhooks', CREATED_KEY.length);
  registerEndpoint(app, 'listWebhooks', async ({ principal, query }) => {
    const page = await webhooks.list(principal, pages.request(query));
    return { body: page.items, nextCursor: pages.cursorAfter(page) };
  });

  registerEndpoint(app, 'createWebhook', async ({ principal, body }) => ({
    status: 201,
    body: await webhooks.create(principal, body),
  }));

  registerEndpoint(app, 'deleteWebhook', async ({ principal, params }) => {
    await webhooks.delete(principal, params.id);
    return { status: 204, body: undefined };
  });

  const deliveryPages = pagedList('webhook_deliveries', 1);
  registerEndpoint(app, 'listWebhookDeliveries', async ({ principal, params, query }) => {
    const page = await webhooks.deliveries(principal, params.id, deliveryPages.request(query));
    return { body: page.items, nextCursor: deliveryPages.cursorAfter(page) };
  });

  registerEndpoint(app, 'sendTestWebhook', async ({ principal, params }) => ({
    status: 202,
    body: await webhooks.sendTest(principal, params.id),
  }));

  registerEndpoint(app, 'retryWebhookDelivery', async ({ principal, params }) => ({
    status: 202,
    body: await webhooks.retry(principal, params.id, params.delivery_id),
  }));
}
