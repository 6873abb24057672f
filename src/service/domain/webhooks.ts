/**
 * What the webhook endpoints do (docs/webhooks.md): endpoints made with a fresh signing
 * secret, shown once; deleted softly (the row stays for its deliveries, which are no longer
 * sent); a test event and a retry queued as deliveries for the sender.
 */
import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_SECRET_PREFIX,
  type CreatedWebhook,
  type CreateWebhookRequest,
  type Webhook,
  type WebhookDelivery,
} from '../../contract/webhooks';
import { newId } from '../ids';
import type { Principal, WebhookRecord } from '../store/records';
import { mapPage, type Page, type PageRequest } from '../store/pages';
import type { Store } from '../store/store';
import { refuseWebhookUrl, type UrlPolicy } from '../webhooks/url-policy';
import { audit, maskedUrl } from './audit';
import type { Clock } from './clock';
import { limitReached, LIMITS } from './limits';
import { notFound, Refused } from './refusals';
import { publicDelivery, publicWebhook, testDelivery } from './webhook-records';

/** Bytes of randomness in a signing secret (Standard Webhooks asks for 24 to 64). */
const SECRET_BYTES = 24;
/** What a secret looks like: 24 bytes are 32 base64 characters, without padding. */
export const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32}$/;

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

export class Webhooks {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly urlPolicy: UrlPolicy,
  ) {}

  async list(principal: Principal, page: PageRequest): Promise<Page<Webhook>> {
    return mapPage(await this.store.listWebhooks(principal.account.id, page), publicWebhook);
  }

  async create(principal: Principal, request: CreateWebhookRequest): Promise<CreatedWebhook> {
    const refusal = refuseWebhookUrl(request.url, this.urlPolicy);
    if (refusal) {
      throw new Refused('invalid_field', `The webhook URL ${refusal}`, {
        field: { path: '/url', message: refusal },
      });
    }
    const now = this.clock();
    const at = now.toISOString();
    const webhook: WebhookRecord = {
      id: newId('wh_', now.getTime()),
      account_id: principal.account.id,
      url: request.url,
      events: [...request.events],
      description: request.description ?? '',
      secret: generateWebhookSecret(),
      created_at: at,
      deleted_at: null,
    };
    // The audit entry names the endpoint, never its secret.
    const entry = audit(webhook.account_id, at, 'webhook.create', principal, webhook.id, {
      url: maskedUrl(webhook.url),
      events: webhook.events,
    });
    if (!(await this.store.insertWebhook(webhook, entry, LIMITS.webhook_endpoints)))
      throw limitReached('webhook_endpoints');
    return { ...publicWebhook(webhook), secret: webhook.secret };
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const accountId = principal.account.id;
    const at = this.clock().toISOString();
    const entry = audit(accountId, at, 'webhook.delete', principal, id, {});
    if (!(await this.store.deleteWebhook(accountId, id, at, entry)))
      throw notFound(`The webhook ${id}`);
  }

  async deliveries(
    principal: Principal,
    id: string,
    page: PageRequest,
  ): Promise<Page<WebhookDelivery>> {
    await this.existing(principal, id);
    const rows = await this.store.listOutboxMessages(principal.account.id, id, page);
    return mapPage(rows, publicDelivery);
  }

  async sendTest(principal: Principal, id: string): Promise<WebhookDelivery> {
    const webhook = await this.existing(principal, id);
    const at = this.clock().toISOString();
    const delivery = testDelivery(webhook, at);
    const entry = audit(webhook.account_id, at, 'webhook.test', principal, webhook.id, {
      delivery_id: delivery.id,
    });
    await this.store.insertOutboxMessage(delivery, entry);
    return publicDelivery(delivery);
  }

  async retry(principal: Principal, id: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.existing(principal, id);
    const at = this.clock().toISOString();
    const accountId = principal.account.id;
    const entry = audit(accountId, at, 'webhook.retry', principal, id, { delivery_id: deliveryId });
    const outcome = await this.store.retryOutboxMessage(accountId, id, deliveryId, at, entry);
    if (outcome.kind === 'not_found') throw notFound(`The delivery ${deliveryId}`);
    if (outcome.kind === 'not_failed') {
      throw new Refused(
        'not_allowed_in_state',
        `The delivery ${deliveryId} is ${outcome.delivery.status}; only a failed delivery is retried`,
      );
    }
    return publicDelivery(outcome.delivery);
  }

  private async existing(principal: Principal, id: string): Promise<WebhookRecord> {
    const webhook = await this.store.getWebhook(principal.account.id, id);
    if (!webhook) throw notFound(`The webhook ${id}`);
    return webhook;
  }
}
