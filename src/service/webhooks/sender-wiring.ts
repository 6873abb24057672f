/** The sender as the app runs it: real HTTP posts under the URL policy, with the defaults. */
import type { Clock } from '../domain/clock';
import {
  DEFAULT_MAX_ANSWER_BYTES,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  postWebhook,
  systemResolver,
  WEBHOOK_USER_AGENT,
  type Resolver,
} from './http-post';
import type { WebhookOutbox } from '../store/outbox/webhook-outbox';
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from './retry-schedule';
import { DEFAULT_SENDER_SETTINGS, leaseFor, WebhookSender, type SenderLog } from './sender';
import type { UrlPolicy } from './url-policy';

export interface WebhookSendingOptions {
  /** `WEBHOOKS_ALLOW_PRIVATE=1`: http: and private addresses may be called. */
  readonly policy: UrlPolicy;
  /** One attempt, all of it; 10 s by default (`WEBHOOKS_TIMEOUT_MS`). */
  readonly timeoutMs?: number;
  /** `WEBHOOKS_RETRY_SCHEDULE_MS` (tests); DEFAULT_RETRY_SCHEDULE by default. */
  readonly schedule?: RetrySchedule;
  readonly pollIntervalMs?: number;
  readonly maxAnswerBytes?: number;
  /** Tests map made-up host names to addresses; the system's DNS by default. */
  readonly resolve?: Resolver;
}

export function createWebhookSender(
  outbox: WebhookOutbox,
  clock: Clock,
  log: SenderLog,
  options: WebhookSendingOptions,
): WebhookSender {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const http = {
    policy: options.policy,
    timeoutMs,
    maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    userAgent: WEBHOOK_USER_AGENT,
    resolve: options.resolve ?? systemResolver,
  };
  return new WebhookSender({
    outbox,
    clock,
    log,
    post: (url, body, headers, signal) => postWebhook(url, body, headers, http, signal),
    settings: {
      ...DEFAULT_SENDER_SETTINGS,
      pollIntervalMs: options.pollIntervalMs ?? DEFAULT_SENDER_SETTINGS.pollIntervalMs,
      schedule: options.schedule ?? DEFAULT_RETRY_SCHEDULE,
      leaseMs: leaseFor(timeoutMs),
    },
  });
}
