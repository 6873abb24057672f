/**
 * Webhooks (docs/webhooks.md): an account's endpoints that get a signed POST, following
 * the Standard Webhooks conventions, when a config is published or an A/B test changes.
 * The signing secret is in exactly one response, the one that creates the endpoint.
 */
import { described, wholeNumber, z } from './zod';
import { timestampSchema } from './timestamp';

export const WEBHOOK_EVENTS = ['config.published', 'ab_test.changed', 'schedule.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** What "send a test event" sends: never one of the events an endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_URL_MAX_LENGTH = 2_048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const webhookIdParamsSchema = z.object({
  id: described(z.string().check(z.minLength(1)), 'Webhook id, e.g. wh_01J…'),
});
export const webhookDeliveryParamsSchema = z.object({
  id: described(z.string().check(z.minLength(1)), 'Webhook id'),
  delivery_id: described(z.string().check(z.minLength(1)), 'Delivery id: its webhook-id, msg_…'),
});

const webhookFields = {
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string(),
  created_at: timestampSchema(),
};

export const webhookSchema = z.object(webhookFields).register(z.globalRegistry, {
  id: 'Webhook',
  description: 'A webhook endpoint, without its secret.',
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListSchema = z
  .array(webhookSchema)
  .register(z.globalRegistry, { id: 'WebhookList' });

export const createdWebhookSchema = z
  .object({
    ...webhookFields,
    secret: described(
      z.string().check(z.startsWith(WEBHOOK_SECRET_PREFIX)),
      'whsec_ and base64: the signing key; shown in this response only, never again',
    ),
  })
  .register(z.globalRegistry, {
    id: 'CreatedWebhook',
    description: 'A new webhook endpoint with its signing secret, shown once.',
  });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const createWebhookRequestSchema = z
  .object({
    url: described(
      z.string().check(z.minLength(1), z.maxLength(WEBHOOK_URL_MAX_LENGTH)),
      'https: only; http: and private, loopback or link-local addresses only where the service allows them',
    ),
    events: z.array(z.enum(WEBHOOK_EVENTS)).check(
      z.minLength(1),
      z.refine((list) => new Set(list).size === list.length, 'each event at most once'),
    ),
    description: z.optional(z.string().check(z.maxLength(WEBHOOK_DESCRIPTION_MAX_LENGTH))),
  })
  .register(z.globalRegistry, { id: 'CreateWebhookRequest' });
export type CreateWebhookRequest = z.infer<typeof createWebhookRequestSchema>;

export const webhookDeliverySchema = z
  .object({
    id: described(z.string(), 'The webhook-id header of every attempt: msg_…'),
    event: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: wholeNumber(0),
    created_at: timestampSchema(),
    last_attempt_at: z.nullable(timestampSchema()),
    next_attempt_at: described(z.nullable(timestampSchema()), 'null: delivered or failed'),
    response_status: described(
      z.nullable(z.number()),
      'The status of the last answer; null: none yet, or no answer (refused, timed out)',
    ),
    error: described(z.nullable(z.string()), 'Why the last attempt failed, if it did'),
  })
  .register(z.globalRegistry, {
    id: 'WebhookDelivery',
    description: 'One event sent to one endpoint, and how its attempts went.',
  });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = z
  .array(webhookDeliverySchema)
  .register(z.globalRegistry, { id: 'WebhookDeliveryList' });

/** The body of every delivery (its `data` depends on `type`). */
export interface WebhookPayload {
  readonly type: WebhookEvent | typeof WEBHOOK_TEST_EVENT;
  readonly timestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
}
