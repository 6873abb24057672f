/** `/webhooks` and its deliveries (docs/webhooks.md). */
import type { FastifyInstance } from 'fastify';
import { publicWebhook } from '../webhooks/webhook-records';
import type { Webhooks } from '../webhooks/webhooks';
import { registerEndpoint, type EndpointDependencies } from './register-endpoint';

export function registerWebhookRoutes(
  app: FastifyInstance,
  deps: EndpointDependencies & { readonly webhooks: Webhooks },
): void {
  const { store, webhooks } = deps;

  registerEndpoint(app, 'listWebhooks', async ({ principal }) => ({
    body: (await store.listWebhooks(principal.account.id)).map(publicWebhook),
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
