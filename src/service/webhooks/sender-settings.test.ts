import { describe, expect, it } from 'vitest';
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
