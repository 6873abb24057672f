/** The webhook events in plain words, for the form's checkboxes and the lists. */
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, type WebhookEvent } from '../../../contract/webhooks';

export const WEBHOOK_EVENT_LABELS: Readonly<Record<WebhookEvent, string>> = {
  'config.published': 'A config is published',
  'ab_test.changed': 'An A/B test changes (started, ended, promoted, updated or deleted)',
  'schedule.failed': 'A scheduled change could not run',
};

/** "A config is published" for a known event, "Test event" for the test; else the name. */
export function describeEvent(event: string): string {
  if (event === WEBHOOK_TEST_EVENT) return 'Test event';
  const known = WEBHOOK_EVENTS.find((candidate) => candidate === event);
  return known ? WEBHOOK_EVENT_LABELS[known] : event;
}
