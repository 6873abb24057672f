/** The stream's wire format: Server-Sent Events (the WHATWG HTML standard's `text/event-stream`). */
import { DELIVERY_EVENT_NAME, type DeliveryView } from '../../contract/delivery';

export const EVENT_STREAM_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

/** An event's id: the live config and its revision, which name the view (docs/delivery.md). */
export function eventIdOf(view: DeliveryView): string {
  return `${view.config.id}:${view.config.revision}`;
}

/** One `app` event; JSON has no line breaks, so the view is one `data:` line. */
export function appEvent(view: DeliveryView): string {
  return `event: ${DELIVERY_EVENT_NAME}\nid: ${eventIdOf(view)}\ndata: ${JSON.stringify(view)}\n\n`;
}

/** A comment line: clients ignore it, proxies and load balancers see the connection in use. */
export const HEARTBEAT = ': heartbeat\n\n';
