/**
 * An account's webhook endpoints and their deliveries in memory, over the contract's
 * handlers (msw-contract.ts), for the component tests of the Delivery page. It sends
 * nothing: a test moves a delivery along with `settle`.
 */
import type { HttpHandler } from 'msw';
import { problemOf } from '../../contract/problem';
import {
  WEBHOOK_TEST_EVENT,
  type CreatedWebhook,
  type CreateWebhookRequest,
  type Webhook,
  type WebhookDelivery,
} from '../../contract/webhooks';
import { handle, pageOf } from './msw-contract';

const AT = '2026-11-22T10:00:00.000Z';
/** When a pending delivery's next attempt is due: far ahead, so it reads "in … days". */
export const NEXT_ATTEMPT_AT = '2099-01-01T00:00:00.000Z';

export function webhookSecret(n: number): string {
  return `whsec_${btoa(`secret-number-${n}-of-the-tests`)}`;
}

export class WebhookServer {
  readonly webhooks: Webhook[] = [];
  /** Newest first, as the service lists them. */
  readonly deliveries = new Map<string, WebhookDelivery[]>();
  /** The bodies of the create requests it received. */
  readonly created: unknown[] = [];
  /** How many times each endpoint's deliveries were read. */
  readonly reads = new Map<string, number>();
  /** When set, a create is refused with a 400 at `/url` saying this. */
  refuseUrl: string | null = null;
  /** When set, a create past this many endpoints is refused as the account's limit. */
  limit: number | null = null;
  readonly handlers: readonly HttpHandler[];
  private next = 1;

  constructor(webhooks: readonly Pick<Webhook, 'url' | 'events' | 'description'>[] = []) {
    for (const webhook of webhooks) this.add(webhook);
    this.handlers = [
      handle('listWebhooks', (request) => pageOf(request, this.webhooks)),
      handle('createWebhook', ({ body }) => {
        this.created.push(body);
        if (this.refuseUrl !== null) {
          return {
            problem: problemOf('invalid_request', `url ${this.refuseUrl}`, {
              errors: [{ path: '/url', message: this.refuseUrl }],
            }),
          };
        }
        if (this.limit !== null && this.webhooks.length >= this.limit) {
          return {
            problem: problemOf(
              'limit_reached',
              `The account already has ${this.limit} webhook endpoints, the most it may have: delete one before adding another`,
              { limit: { name: 'webhook_endpoints', value: this.limit } },
            ),
          };
        }
        return { status: 201, body: this.add(body) };
      }),
      handle('deleteWebhook', ({ params }) => {
        const index = this.webhooks.findIndex((webhook) => webhook.id === params.id);
        if (index < 0) return { problem: problemOf('not_found', `No webhook ${params.id}`) };
        this.webhooks.splice(index, 1);
        this.deliveries.delete(params.id);
        return { status: 204 };
      }),
      handle('listWebhookDeliveries', (request) => {
        const { params } = request;
        const list = this.deliveries.get(params.id);
        if (!list) return { problem: problemOf('not_found', `No webhook ${params.id}`) };
        this.reads.set(params.id, (this.reads.get(params.id) ?? 0) + 1);
        return pageOf(request, list);
      }),
      handle('sendTestWebhook', ({ params }) => {
        if (!this.deliveries.has(params.id)) {
          return { problem: problemOf('not_found', `No webhook ${params.id}`) };
        }
        return { status: 202, body: this.queue(params.id, WEBHOOK_TEST_EVENT) };
      }),
      handle('retryWebhookDelivery', ({ params }) => {
        const delivery = this.deliveries
          .get(params.id)
          ?.find((candidate) => candidate.id === params.delivery_id);
        if (!delivery) {
          return { problem: problemOf('not_found', `No delivery ${params.delivery_id}`) };
        }
        if (delivery.status !== 'failed') {
          return { problem: problemOf('conflict', `${delivery.id} is not failed`) };
        }
        Object.assign(delivery, { status: 'pending', next_attempt_at: NEXT_ATTEMPT_AT });
        return { status: 202, body: delivery };
      }),
    ];
  }

  add(request: CreateWebhookRequest): CreatedWebhook {
    const n = this.next++;
    const webhook: Webhook = {
      id: `wh_${n}`,
      url: request.url,
      events: request.events,
      description: request.description ?? '',
      created_at: AT,
    };
    this.webhooks.push(webhook);
    this.deliveries.set(webhook.id, []);
    return { ...webhook, secret: webhookSecret(n) };
  }

  /** A new pending delivery of `event`, not tried yet. */
  queue(webhookId: string, event: string): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id: `msg_${this.next++}`,
      event,
      status: 'pending',
      attempts: 0,
      created_at: AT,
      last_attempt_at: null,
      next_attempt_at: AT,
      response_status: null,
      error: null,
    };
    this.deliveries.get(webhookId)?.unshift(delivery);
    return delivery;
  }

  /** Moves a delivery on, as the sender would after an attempt. */
  settle(deliveryId: string, change: Partial<WebhookDelivery>): void {
    for (const list of this.deliveries.values()) {
      const delivery = list.find((candidate) => candidate.id === deliveryId);
      if (delivery) Object.assign(delivery, change);
    }
  }
}
