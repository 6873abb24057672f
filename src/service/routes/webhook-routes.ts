/** `/webhooks` and its deliveries (docs/webhooks.md). */
import type { FastifyInstance } from 'fastify';
import type { Webhooks } from '../domain/webhooks';
import { registerEndpoint } from './register-endpoint';

export function registerWebhookRoutes(app: FastifyInstance, webhooks: Webhooks): void {
  registerEndpoint(app, 'listWebhooks', async ({ principal }) => ({
    body: await webhooks.list(principal),
  }));

  registerEndpoint(app, 'createWebhook', async ({ principal, body }) => ({
    status: 201,
    body: await webhooks.create(principal, body),
  }));

  registerEndpoint(app, 'deleteWebhook', async ({ principal, params }) => {
    await webhooks.delete(principal, params.id);
    return { status: 204, body: undefined };
  });

  registerEndpoint(app, 'listWebhookDeliveries', async ({ principal, params }) => ({
    body: await webhooks.deliveries(principal, params.id),
  }));

  registerEndpoint(app, 'sendTestWebhook', async ({ principal, params }) => ({
    status: 202,
    body: await webhooks.sendTest(principal, params.id),
  }));

  registerEndpoint(app, 'retryWebhookDelivery', async ({ principal, params }) => ({
    status: 202,
    body: await webhooks.retry(principal, params.id, params.delivery_id),
  }));
}
