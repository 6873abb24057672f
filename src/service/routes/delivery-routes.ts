/**
 * `GET /delivery/{client_key}/apps/{app_id}` and its `/assignment` (docs/delivery.md): what
 * apps read with a client key. Every way of not finding the view (an unknown, revoked or
 * API key, an unknown app, an app outside the key's scope) answers the same 404, so that a
 * caller learns nothing about other accounts or which keys exist.
 */
import type { FastifyInstance } from 'fastify';
import { assign } from '../../contract/assignment';
import type { DeliveryViewReads } from '../delivery/store-delivery-reads';
import type { CachedAppView } from '../delivery/view-cache';
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

  const viewAnswer = (read: CachedAppView | undefined) => {
    if (!read) throw deliveryNotFound();
    return { serializedBody: read.json, etag: read.etag };
  };
  // Answered at once when the key's lookup and the view are in memory (an app polling).
  registerEndpoint(app, 'getDeliveryView', ({ params }) => {
    const read = reads.viewByKey(params.client_key, params.app_id);
    return read instanceof Promise ? read.then(viewAnswer) : viewAnswer(read);
  });

  registerEndpoint(app, 'getAssignment', async ({ params, query }) => {
    const read = await reads.viewByKey(params.client_key, params.app_id);
    if (!read) throw deliveryNotFound();
    const { settings, tests } = assign(read.view, query.unit);
    return { body: { unit: query.unit, settings, tests } };
  });
}
