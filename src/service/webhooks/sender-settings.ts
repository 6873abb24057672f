/** The sender's settings from the environment (docs/operations.md). */
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from './http-post';
import { retryScheduleFrom, type RetrySchedule } from './retry-schedule';

export interface WebhookSenderEnvSettings {
  /** `WEBHOOKS_TIMEOUT_MS`: one attempt, all of it; 10 s by default. */
  readonly timeoutMs: number;
  /** `WEBHOOKS_RETRY_SCHEDULE_MS` (tests, trials): the delays between attempts. */
  readonly schedule: RetrySchedule;
}

export function webhookSenderSettingsFrom(env: NodeJS.ProcessEnv): WebhookSenderEnvSettings {
  const raw = env.WEBHOOKS_TIMEOUT_MS;
  let timeoutMs = DEFAULT_WEBHOOK_TIMEOUT_MS;
  if (raw !== undefined && raw !== '') {
    if (!/^[1-9][0-9]*$/.test(raw))
      throw new Error(
        `WEBHOOKS_TIMEOUT_MS must be a whole number of milliseconds > 0, got "${raw}"`,
      );
    timeoutMs = Number(raw);
  }
  return { timeoutMs, schedule: retryScheduleFrom(env.WEBHOOKS_RETRY_SCHEDULE_MS) };
}
