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
import { registerEndpoint, SHARED_REVALIDATED_CACHE_CONTROL } from './register-endpoint';

export const DELIVERY_NOT_FOUND_DETAIL = 'No app with this id can be read with this client key';

export function deliveryNotFound(): HttpProblem {
  return HttpProblem.of('not_found', DELIVERY_NOT_FOUND_DETAIL);
}

/**
 * A view's Cache-Control. By default every cache asks again before each use. With
 * `DELIVERY_CDN_MAX_AGE` seconds, a browser still does (`max-age=0`), while a shared cache
 * (a CDN) may answer from its copy for that long, and a while more as it asks again: the
 * whole fleet's polls become one request per max-age at the origin.
 */
export function deliveryCacheControl(cdnMaxAgeSeconds: number): string {
  if (cdnMaxAgeSeconds <= 0) return SHARED_REVALIDATED_CACHE_CONTROL;
  return `max-age=0, s-maxage=${cdnMaxAgeSeconds}, stale-while-revalidate=${cdnMaxAgeSeconds}`;
}

export function registerDeliveryRoutes(
  app: FastifyInstance,
  deps: { readonly reads: DeliveryViewReads; readonly cdnMaxAgeSeconds?: number },
): void {
  const { reads } = deps;
  const cacheControl = deliveryCacheControl(deps.cdnMaxAgeSeconds ?? 0);

  const viewAnswer = (read: CachedAppView | undefined) => {
    if (!read) throw deliveryNotFound();
    return { serializedBody: read.json, etag: read.etag, cacheControl };
  };
  // Answered at once when the key's lookup and the view are in memory (an app polling).
  registerEndpoint(app, 'getDeliveryView', ({ params, reply }) => {
    // Compressed or not depends on the caller's Accept-Encoding, so every answer says so (a
    // 304 and an answer under the compression threshold too): a shared cache keeps them apart.
    reply.header('vary', 'accept-encoding');
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
