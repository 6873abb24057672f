/**
 * `GET /delivery/{client_key}/apps/{app_id}` and its `/assignment` (docs/delivery.md): what
 * apps read with a client key. Every way of not finding the view (an unknown, revoked or
 * API key, an unknown app, an app outside the key's scope) answers the same 404, so that a
 * caller learns nothing about other accounts or which keys exist.
 */
import type { FastifyInstance } from 'fastify';
import { assign } from '../../contract/assignment';
import type { DeliveryViewReads } from '../delivery/store-delivery-reads';
import { HttpProblem } from '../http-problem';
import { registerEndpoint } from './register-endpoint';

export const DELIVERY_NOT_FOUND_DETAIL = 'No app with this id can be read with this client key';

export function deliveryNotFound(): HttpProblem {
  return HttpProblem.of('not_found', DELIVERY_NOT_FOUND_DETAIL);
}

export function registerDeliveryRoutes(
  app: FastifyInstance,
  deps: { readonly reads: DeliveryViewReads },
): void {
  const { reads } = deps;

  registerEndpoint(app, 'getDeliveryView', async ({ params }) => {
    const read = await reads.viewByKey(params.client_key, params.app_id);
    if (!read) throw deliveryNotFound();
    return { serializedBody: read.json, etag: read.etag };
  });

  registerEndpoint(app, 'getAssignment', async ({ params, query }) => {
    const read = await reads.viewByKey(params.client_key, params.app_id);
    if (!read) throw deliveryNotFound();
    const { settings, tests } = assign(read.view, query.unit);
    return { body: { unit: query.unit, settings, tests } };
  });
}
