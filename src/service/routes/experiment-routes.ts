/** The experiment endpoints: `/metrics` (docs/experiments.md, Metrics). */
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../domain/metrics';
import { registerEndpoint } from './register-endpoint';

export function registerMetricRoutes(app: FastifyInstance, metrics: Metrics): void {
  registerEndpoint(app, 'listMetrics', async ({ principal }) => ({
    body: await metrics.list(principal),
  }));

  registerEndpoint(app, 'createMetric', async ({ principal, body }) => ({
    status: 201,
    body: await metrics.create(principal, body),
  }));

  registerEndpoint(app, 'updateMetric', async ({ principal, params, body }) => ({
    body: await metrics.update(principal, params.metric_id, body),
  }));

  registerEndpoint(app, 'deleteMetric', async ({ principal, params }) => {
    await metrics.delete(principal, params.metric_id);
    return { status: 204, body: undefined };
  });
}
