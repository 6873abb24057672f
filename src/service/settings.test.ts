/** The settings read from the environment: defaults, and refusals that name the variable. */
import { describe, expect, it } from 'vitest';
import { corsOriginsFrom, settingsFromEnv, trustedProxiesFrom } from './settings';

describe('settingsFromEnv', () => {
  it('defaults to headers within 10 s, a request within 30 s, idle 5 s, no proxy, no source maps', () => {
    const settings = settingsFromEnv({});
    expect(settings.http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      trustProxy: false,
    });
    expect(settings.serveSourceMaps).toBe(false);
    expect(settings.corsOrigins).toEqual([]);
  });

  it('reads the timeouts, TRUST_PROXY and SERVE_SOURCE_MAPS', () => {
    const settings = settingsFromEnv({
      HEADERS_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '4000',
      KEEP_ALIVE_TIMEOUT_MS: '1000',
      TRUST_PROXY: '10.0.0.1, 192.168.0.0/16',
      SERVE_SOURCE_MAPS: '1',
    });
    expect(settings.http).toEqual({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 1000,
      trustProxy: ['10.0.0.1', '192.168.0.0/16'],
    });
    expect(settings.serveSourceMaps).toBe(true);
  });

  it('summarizes successful delivery reads unless DELIVERY_ACCESS_LOG=each, and refuses another value', () => {
    expect(settingsFromEnv({}).deliveryAccessLog).toBe('summary');
    expect(settingsFromEnv({ DELIVERY_ACCESS_LOG: 'summary' }).deliveryAccessLog).toBe('summary');
    expect(settingsFromEnv({ DELIVERY_ACCESS_LOG: 'each' }).deliveryAccessLog).toBe('each');
    expect(() => settingsFromEnv({ DELIVERY_ACCESS_LOG: 'all' })).toThrow(
      'DELIVERY_ACCESS_LOG must be summary or each, got "all"',
    );
  });

  it("bounds a client key's events per instance: 20,000 a second, bursts of 40,000, or the settings", () => {
    expect(settingsFromEnv({}).eventBudget).toEqual({ perSecond: 20_000, burst: 40_000 });
    const set = settingsFromEnv({ EVENTS_PER_KEY_PER_SECOND: '0', EVENTS_PER_KEY_BURST: '10' });
    expect(set.eventBudget).toEqual({ perSecond: 0, burst: 10 });
    expect(() => settingsFromEnv({ EVENTS_PER_KEY_PER_SECOND: 'lots' })).toThrow(
      'EVENTS_PER_KEY_PER_SECOND must be a number >= 0',
    );
  });

  it('keeps raw experiment events 90 days, or EXPERIMENT_EVENT_RETENTION_DAYS, never under 7', () => {
    expect(settingsFromEnv({}).retention.experimentEventDays).toBe(90);
    const year = settingsFromEnv({ EXPERIMENT_EVENT_RETENTION_DAYS: '365' });
    expect(year.retention.experimentEventDays).toBe(365);
    expect(() => settingsFromEnv({ EXPERIMENT_EVENT_RETENTION_DAYS: '6' })).toThrow(
      'EXPERIMENT_EVENT_RETENTION_DAYS must be at least 7',
    );
  });

  it.each([
    [{ REQUEST_TIMEOUT_MS: '0' }, 'REQUEST_TIMEOUT_MS'],
    [{ HEADERS_TIMEOUT_MS: '1.5' }, 'HEADERS_TIMEOUT_MS'],
    [{ KEEP_ALIVE_TIMEOUT_MS: 'soon' }, 'KEEP_ALIVE_TIMEOUT_MS'],
    [{ HEADERS_TIMEOUT_MS: '40000' }, 'HEADERS_TIMEOUT_MS must not be longer'],
  ])('refuses %o', (env, message) => {
    expect(() => settingsFromEnv(env)).toThrow(message);
  });
});

describe('DELIVERY_RATE_LIMIT_RPS', () => {
  it('defaults to 200 a second with bursts of 2,000 (a fleet behind one address), apart from the API limit', () => {
    const settings = settingsFromEnv({ RATE_LIMIT_RPS: '5' });
    expect(settings.deliveryRateLimit).toEqual({ rps: 200, burst: 2_000 });
    expect(settings.rateLimit.rps).toBe(5);
  });

  it('reads the rate and the burst, 0 turning it off', () => {
    expect(
      settingsFromEnv({ DELIVERY_RATE_LIMIT_RPS: '1000', DELIVERY_RATE_LIMIT_BURST: '5000' })
        .deliveryRateLimit,
    ).toEqual({ rps: 1000, burst: 5000 });
    expect(settingsFromEnv({ DELIVERY_RATE_LIMIT_RPS: '0' }).deliveryRateLimit.rps).toBe(0);
  });

  it('refuses what is not a number', () => {
    expect(() => settingsFromEnv({ DELIVERY_RATE_LIMIT_RPS: 'many' })).toThrow(
      'DELIVERY_RATE_LIMIT_RPS',
    );
    expect(() => settingsFromEnv({ DELIVERY_RATE_LIMIT_BURST: '-1' })).toThrow(
      'DELIVERY_RATE_LIMIT_BURST',
    );
  });
});

describe('TRUST_PROXY', () => {
  it('is off when unset or empty', () => {
    expect(trustedProxiesFrom(undefined)).toBe(false);
    expect(trustedProxiesFrom(' ')).toBe(false);
  });

  it('takes addresses, CIDR ranges and the named private ranges', () => {
    expect(
      trustedProxiesFrom(
        '127.0.0.1,::1, 10.0.0.0/8,fd00::/8,10.1.0.0/255.255.0.0,loopback,uniquelocal',
      ),
    ).toEqual([
      '127.0.0.1',
      '::1',
      '10.0.0.0/8',
      'fd00::/8',
      '10.1.0.0/255.255.0.0',
      'loopback',
      'uniquelocal',
    ]);
  });

  it.each(['true', '*', '2', 'proxy.internal', '10.0.0.0/33', '::1/129', '10.0.0.1,', '1.2.3'])(
    'refuses %j, naming what it takes',
    (raw) => {
      expect(() => trustedProxiesFrom(raw)).toThrow(/TRUST_PROXY must be a comma-separated list/);
    },
  );
});

describe('CORS_ORIGINS', () => {
  it('is none (only this origin) when unset or empty', () => {
    expect(corsOriginsFrom(undefined)).toEqual([]);
    expect(corsOriginsFrom(' ')).toEqual([]);
  });

  it('takes exact http(s) origins, comma-separated, once each', () => {
    expect(
      settingsFromEnv({
        CORS_ORIGINS:
          'https://console.example.com, http://127.0.0.1:8081,http://[::1]:9000,https://console.example.com',
      }).corsOrigins,
    ).toEqual(['https://console.example.com', 'http://127.0.0.1:8081', 'http://[::1]:9000']);
  });

  it.each([
    ['*', '"*" is not one'],
    ['null', '"null" is not one'],
    ['console.example.com', '"console.example.com" is not one'],
    ['ftp://files.example.com', '"ftp://files.example.com" is not one'],
    ['https://console.example.com/', '(its origin is https://console.example.com)'],
    ['https://console.example.com/api/v1', '(its origin is https://console.example.com)'],
    ['https://Console.example.com', '(its origin is https://console.example.com)'],
    ['https://console.example.com:443', '(its origin is https://console.example.com)'],
    ['https://a.example,', 'an entry is empty'],
  ])('refuses %j at start-up, naming the entry', (raw, reason) => {
    expect(() => settingsFromEnv({ CORS_ORIGINS: raw })).toThrow(
      /^CORS_ORIGINS must be a comma-separated list of origins such as https:\/\/console\.example\.com/,
    );
    expect(() => corsOriginsFrom(raw)).toThrow(reason);
  });
});

describe('DELIVERY_MAX_STREAMS', () => {
  it('defaults to 10,000 streams an instance', () => {
    expect(settingsFromEnv({}).deliveryMaxStreams).toBe(10_000);
  });

  it('takes a whole number of streams', () => {
    expect(settingsFromEnv({ DELIVERY_MAX_STREAMS: '2500' }).deliveryMaxStreams).toBe(2_500);
  });

  it.each(['0', '-1', '1.5', 'many'])('refuses %j, naming the variable', (raw) => {
    expect(() => settingsFromEnv({ DELIVERY_MAX_STREAMS: raw })).toThrow(
      /DELIVERY_MAX_STREAMS must be a whole number > 0/,
    );
  });
});

describe('DELIVERY_MAX_STREAMS_PER_ADDRESS', () => {
  it('defaults to 1,000 streams from one address', () => {
    expect(settingsFromEnv({}).deliveryMaxStreamsPerAddress).toBe(1_000);
  });

  it('takes a whole number of streams, and refuses 0', () => {
    expect(
      settingsFromEnv({ DELIVERY_MAX_STREAMS_PER_ADDRESS: '50' }).deliveryMaxStreamsPerAddress,
    ).toBe(50);
    expect(() => settingsFromEnv({ DELIVERY_MAX_STREAMS_PER_ADDRESS: '0' })).toThrow(
      /DELIVERY_MAX_STREAMS_PER_ADDRESS must be a whole number > 0/,
    );
  });
});

describe('DELIVERY_CDN_MAX_AGE', () => {
  it('is off by default, and takes whole seconds (0: off)', () => {
    expect(settingsFromEnv({}).deliveryCdnMaxAgeSeconds).toBe(0);
    expect(settingsFromEnv({ DELIVERY_CDN_MAX_AGE: '0' }).deliveryCdnMaxAgeSeconds).toBe(0);
    expect(settingsFromEnv({ DELIVERY_CDN_MAX_AGE: '30' }).deliveryCdnMaxAgeSeconds).toBe(30);
  });

  it.each(['-1', '1.5', '30s'])('refuses %j, naming the variable', (raw) => {
    expect(() => settingsFromEnv({ DELIVERY_CDN_MAX_AGE: raw })).toThrow(
      /DELIVERY_CDN_MAX_AGE must be a whole number of seconds >= 0/,
    );
  });
});

describe('WEBHOOKS_ALLOW_PRIVATE', () => {
  it('is off unless 1: webhooks call public https: addresses only', () => {
    expect(settingsFromEnv({}).webhooksAllowPrivate).toBe(false);
    expect(settingsFromEnv({ WEBHOOKS_ALLOW_PRIVATE: '' }).webhooksAllowPrivate).toBe(false);
    expect(settingsFromEnv({ WEBHOOKS_ALLOW_PRIVATE: '0' }).webhooksAllowPrivate).toBe(false);
    expect(settingsFromEnv({ WEBHOOKS_ALLOW_PRIVATE: '1' }).webhooksAllowPrivate).toBe(true);
  });

  it('refuses another value rather than guess', () => {
    expect(() => settingsFromEnv({ WEBHOOKS_ALLOW_PRIVATE: 'true' })).toThrow(
      'WEBHOOKS_ALLOW_PRIVATE must be 1 or 0, got "true"',
    );
  });
});

describe('retention', () => {
  it('keeps delivered webhook messages 30 days, failed ones 90, deleted endpoints 30; prunes hourly', () => {
    expect(settingsFromEnv({}).retention).toMatchObject({
      deliveredDays: 30,
      failedDays: 90,
      deletedWebhookDays: 30,
      intervalMs: 3_600_000,
    });
  });

  it('reads each setting, and refuses what is not a whole number > 0', () => {
    const settings = settingsFromEnv({
      WEBHOOK_DELIVERED_RETENTION_DAYS: '7',
      WEBHOOK_FAILED_RETENTION_DAYS: '14',
      WEBHOOK_DELETED_RETENTION_DAYS: '3',
      PRUNE_INTERVAL_MS: '60000',
    });
    expect(settings.retention).toMatchObject({
      deliveredDays: 7,
      failedDays: 14,
      deletedWebhookDays: 3,
      intervalMs: 60_000,
    });
    expect(() => settingsFromEnv({ WEBHOOK_FAILED_RETENTION_DAYS: '0' })).toThrow(
      /WEBHOOK_FAILED_RETENTION_DAYS must be a whole number > 0/,
    );
  });
});

describe('sign-in settings', () => {
  const sso = {
    PUBLIC_URL: 'https://console.acme.com/',
    OIDC_ISSUER: 'https://acme.okta.com',
    OIDC_CLIENT_ID: 'console',
    OIDC_CLIENT_SECRET: 's3cret',
  };

  it('defaults to sessions of 30 idle minutes and 12 hours, no public URL, no SSO', () => {
    expect(settingsFromEnv({}).people).toEqual({
      sessionDefaults: { idleMinutes: 30, maxHours: 12 },
    });
  });

  it('reads the deployment connection, its groups and just-in-time join', () => {
    const { people } = settingsFromEnv({
      ...sso,
      OIDC_GROUP_ROLES: 'console-admins=admin, engineering=editor',
      OIDC_DEFAULT_ROLE: 'refuse',
      OIDC_JIT_ORGANIZATION: 'org_1',
      SESSION_IDLE_MINUTES: '15',
    });
    expect(people.publicUrl).toBe('https://console.acme.com');
    expect(people.sessionDefaults).toEqual({ idleMinutes: 15, maxHours: 12 });
    expect(people.deploymentSso).toEqual({
      connection: {
        issuer: 'https://acme.okta.com',
        client_id: 'console',
        email_domains: [],
        groups_claim: 'groups',
        group_roles: { 'console-admins': 'admin', engineering: 'editor' },
        default_role: 'refuse',
        jit: true,
      },
      clientSecret: 's3cret',
      jitOrganizationId: 'org_1',
    });
  });

  it('refuses half a connection, a bad group map, and lengths out of bounds', () => {
    expect(() => settingsFromEnv({ OIDC_ISSUER: 'https://acme.okta.com' })).toThrow(
      /OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and PUBLIC_URL together/,
    );
    expect(() => settingsFromEnv({ ...sso, OIDC_GROUP_ROLES: 'admins=owner' })).toThrow(
      /"admins=owner" is not one/,
    );
    expect(() => settingsFromEnv({ SESSION_IDLE_MINUTES: '2' })).toThrow(
      /SESSION_IDLE_MINUTES must be between 5 and 1440/,
    );
    expect(() => settingsFromEnv({ PUBLIC_URL: 'console.acme.com' })).toThrow(/PUBLIC_URL/);
  });
});
