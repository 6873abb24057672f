import { describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../settings';
import { DEFAULT_RETRY_SCHEDULE } from './retry-schedule';
import { webhookSenderSettingsFrom } from './sender-settings';

describe('the sender’s settings', () => {
  it('default to a 10 s attempt and the standard schedule', () => {
    expect(webhookSenderSettingsFrom({})).toEqual({
      timeoutMs: 10_000,
      schedule: DEFAULT_RETRY_SCHEDULE,
    });
  });

  it('read WEBHOOKS_TIMEOUT_MS and WEBHOOKS_RETRY_SCHEDULE_MS', () => {
    const settings = webhookSenderSettingsFrom({
      WEBHOOKS_TIMEOUT_MS: '500',
      WEBHOOKS_RETRY_SCHEDULE_MS: '50,100',
    });
    expect(settings.timeoutMs).toBe(500);
    expect(settings.schedule.delaysMs).toEqual([50, 100]);
  });

  it('refuse a timeout that is not a whole number of milliseconds > 0', () => {
    for (const wrong of ['0', '-1', '1.5', '10s'])
      expect(() => webhookSenderSettingsFrom({ WEBHOOKS_TIMEOUT_MS: wrong }), wrong).toThrow(
        /WEBHOOKS_TIMEOUT_MS/,
      );
  });
});

describe('the service’s settings', () => {
  it('carry the sender’s, and refuse to start on a wrong one', () => {
    expect(settingsFromEnv({ WEBHOOKS_TIMEOUT_MS: '2500' }).webhookSender.timeoutMs).toBe(2500);
    expect(() => settingsFromEnv({ WEBHOOKS_RETRY_SCHEDULE_MS: 'soon' })).toThrow(
      /WEBHOOKS_RETRY_SCHEDULE_MS/,
    );
  });
});
