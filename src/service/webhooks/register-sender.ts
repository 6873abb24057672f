/**
 * The sender in the app's life: started when the app is ready, woken when this process
 * queues outbox messages, closed (without hanging) when the app closes, before the store is.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../domain/clock';
import type { WebhookOutbox } from '../store/outbox/webhook-outbox';
import type { WebhookSender } from './sender';
import { createWebhookSender, type WebhookSendingOptions } from './sender-wiring';

export function registerWebhookSender(
  app: FastifyInstance,
  outbox: WebhookOutbox,
  clock: Clock,
  options: WebhookSendingOptions,
): WebhookSender {
  const sender = createWebhookSender(outbox, clock, app.log, options);
  let unsubscribe: (() => void) | undefined;
  app.addHook('onReady', async () => {
    // Without the word (a store that cannot give it), the poll alone finds new messages.
    unsubscribe = outbox.onOutboxQueued?.(() => sender.wake());
    sender.start();
  });
  let closing: Promise<void> | undefined;
  // Begun before the connections drain, so its grace period overlaps theirs (a stop must be
  // over within the service's deadline), and awaited once they are closed.
  app.addHook('preClose', async () => {
    unsubscribe?.();
    closing = sender.close();
  });
  app.addHook('onClose', async () => {
    await (closing ?? sender.close());
  });
  return sender;
}
