/**
 * `GET /delivery/{client_key}/stream?app=ID` (docs/delivery.md, "Push"): the app's view as
 * Server-Sent Events. Everything that can refuse (a full instance, an unknown key, app or
 * scope) answers before the stream's first byte, as a problem; then the hub owns the
 * response.
 */
import type { FastifyInstance } from 'fastify';

import type { DeliveryViewReads } from '../delivery/store-delivery-reads';
import { keyCanRead } from '../domain/client-keys';
import { EVENT_STREAM_CONTENT_TYPE } from '../delivery/sse';

import type { StreamHub } from '../delivery/stream-hub';

import { HttpProblem } from '../http-problem';

import { deliveryNotFound } from './delivery-routes';

import { registerEndpoint } from './register-endpoint';

/** Seconds a client is told to wait when the instance holds its most streams. */
export const STREAMS_FULL_RETRY_AFTER_S = 5;

export interface StreamRouteDependencies {
  readonly reads: DeliveryViewReads;
  readonly streams: StreamHub;
}

function streamsFull(max: number): HttpProblem {
  return HttpProblem.of(
    'service_busy',
    `This instance holds its most open streams (${max.toLocaleString('en')}); retry after the Retry-After seconds`,
    {},
    { 'retry-after': String(STREAMS_FULL_RETRY_AFTER_S) },
  );
}

/** The client's own excess, not the instance's: 429, as the delivery rate limit answers. */
function addressFull(max: number): HttpProblem {
  return HttpProblem.of(
    'rate_limited',
    `This address holds its most open streams on this instance (${max.toLocaleString('en')}); retry after the Retry-After seconds`,
    {},
    { 'retry-after': String(STREAMS_FULL_RETRY_AFTER_S) },
  );
}

export function registerStreamRoute(
  app: FastifyInstance,
  deps: StreamRouteDependencies & {
    readonly maxStreams: number;
    readonly maxStreamsPerAddress: number;
  },
): void {
  const { reads, streams } = deps;
  const refusal = (address: string) => {
    if (streams.full) return streamsFull(deps.maxStreams);
    if (streams.fullFor(address)) return addressFull(deps.maxStreamsPerAddress);
    return undefined;
  };
  registerEndpoint(app, 'streamDeliveryView', async ({ request, reply, params, query }) => {
    const address = request.ip;
    const early = refusal(address);
    if (early) throw early;
    const changesHeardBefore = streams.changesHeard();
    const key = await reads.clientKey(params.client_key);
    if (!key || !keyCanRead(key, query.app)) throw deliveryNotFound();
    // As the GET reads it: the live stamp with the key, the view from the cache.
    const read = await reads.viewByKey(params.client_key, query.app);
    if (!read) throw deliveryNotFound();
    // Others opened meanwhile.
    const late = refusal(address);
    if (late) throw late;
    const lastEventId = request.headers['last-event-id'];
    reply.hijack();
    streams.start(
      reply.raw,
      {
        // What the onRequest hooks set (security headers, CORS), then the stream's own.
        ...reply.getHeaders(),
        'content-type': EVENT_STREAM_CONTENT_TYPE,
        'cache-control': 'no-cache',
        // Proxies that buffer answers (nginx) pass this one on as it comes.
        'x-accel-buffering': 'no',
      },
      {
        address,
        key,
        appId: query.app,
        read,
        lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
        changesHeardBefore,
      },
    );
    return { streamed: true };
  });
}
