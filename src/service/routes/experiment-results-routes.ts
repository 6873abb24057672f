/**
 * `POST /delivery/{client_key}/events` (apps' exposures and metric events) and the results of
 * an A/B test: `GET /ab-tests/{id}/results`, `…/timeseries`, `POST …/refresh`.
 */
import type { FastifyInstance } from 'fastify';
import type { EventIngestion } from '../domain/experiments/event-ingestion';
import type { ExperimentResultsReads } from '../domain/experiments/results-reads';
import { deliveryNotFound } from './delivery-routes';
import { registerEndpoint } from './register-endpoint';

export function registerEventRoutes(app: FastifyInstance, ingestion: EventIngestion): void {
  registerEndpoint(app, 'sendEvents', async ({ params, body }) => {
    const answer = await ingestion.ingest(params.client_key, body.events);
    if (!answer) throw deliveryNotFound();
    return { body: answer };
  });
}

export function registerResultsRoutes(app: FastifyInstance, reads: ExperimentResultsReads): void {
  registerEndpoint(app, 'getResults', async ({ principal, params, query }) => ({
    body: await reads.results(principal, params.test_id, query),
  }));
  registerEndpoint(app, 'getResultsTimeseries', async ({ principal, params, query }) => ({
    body: await reads.timeseries(principal, params.test_id, query),
  }));
  registerEndpoint(app, 'refreshResults', async ({ principal, params }) => ({
    body: await reads.refresh(principal, params.test_id),
  }));
}
