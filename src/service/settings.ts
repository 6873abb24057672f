/** The service's settings from the environment (docs/operations.md), with their defaults. */
import { DEFAULT_RESULTS_JOB } from './experiments/results-job';
import {
  DEFAULT_EVENT_BUDGET,
  type EventBudgetSettings,
} from './domain/experiments/event-ingestion';
import { MAX_EVENT_AGE_DAYS } from '../contract/experiments';
import { ROLES, type Role } from '../contract/auth-status';
import { SESSION_IDLE_MINUTES, SESSION_MAX_HOURS } from '../contract/people';
import type { PeopleSettings } from './app';
import type { DeploymentSso } from './domain/sso-identity';
import { isIP } from 'node:net';
import {
  DEFAULT_HTTP_SETTINGS,
  type HttpSettings,
  type TrustedProxies,
} from './plugins/connections';
import { DEFAULT_EDIT_POOL, type EditPoolSettings } from './edit-work/edit-pool';
import { DEFAULT_DELIVERY_RATE_LIMIT, type RateLimitSettings } from './plugins/rate-limit';
import { DELIVERY_ACCESS_LOG_MODES, type DeliveryAccessLog } from './plugins/delivery-read-log';
import { DEFAULT_STREAM_SETTINGS } from './delivery/stream-hub';
import { DEFAULT_RETENTION, type RetentionSettings } from './retention/pruner';
import {
  webhookSenderSettingsFrom,
  type WebhookSenderEnvSettings,
} from './webhooks/sender-settings';

export interface ServiceSettings {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** PostgreSQL instead of SQLite: `postgres://user:password@host:port/database`. */
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  readonly rateLimit: RateLimitSettings;
  /** The delivery URLs' own limit, per client address (`DELIVERY_RATE_LIMIT_RPS`, `_BURST`). */
  readonly deliveryRateLimit: RateLimitSettings;
  /** `RESULTS_TICK_MS`: how often an instance looks for experiment results to compute. */
  readonly resultsTickMs: number;
  /** Events a client key may send each instance (`EVENTS_PER_KEY_PER_SECOND`, `_BURST`). */
  readonly eventBudget: EventBudgetSettings;
  /** `DELIVERY_ACCESS_LOG`: successful delivery reads counted a minute at a time, or `each` logged. */
  readonly deliveryAccessLog: DeliveryAccessLog;
  readonly editPool: EditPoolSettings;
  readonly http: HttpSettings;
  /** `SERVE_SOURCE_MAPS=1`: the console's `.map` files are served (they are not by default). */
  readonly serveSourceMaps: boolean;
  /** `CORS_ORIGINS`: the other origins whose consoles may call this API, and whose APIs this console may call. */
  readonly corsOrigins: readonly string[];
  /** `DELIVERY_MAX_STREAMS`: delivery streams this instance holds open at most. */
  readonly deliveryMaxStreams: number;
  /** `DELIVERY_MAX_STREAMS_PER_ADDRESS`: of those, from one client address at most. */
  readonly deliveryMaxStreamsPerAddress: number;
  /** `DELIVERY_CDN_MAX_AGE`: seconds a shared cache may answer delivery views from its copy (0: off). */
  readonly deliveryCdnMaxAgeSeconds: number;
  /** `WEBHOOKS_ALLOW_PRIVATE=1`: webhooks may call http: URLs and private, loopback or link-local addresses (tests, development). */
  readonly webhooksAllowPrivate: boolean;
  /** `WEBHOOKS_TIMEOUT_MS`, `WEBHOOKS_RETRY_SCHEDULE_MS` (tests, trials): the webhook sender's. */
  readonly webhookSender: WebhookSenderEnvSettings;
  /**
   * `WEBHOOK_DELIVERED_RETENTION_DAYS`, `WEBHOOK_FAILED_RETENTION_DAYS`,
   * `WEBHOOK_DELETED_RETENTION_DAYS`, `PRUNE_INTERVAL_MS`: what the pruner keeps, how often it runs.
   */
  readonly retention: RetentionSettings;
  /** Sign-in: the public URL, session lengths, the deployment's SSO connection. */
  readonly people: PeopleSettings;
}

function databaseUrlFrom(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw))
    throw new Error('DATABASE_URL must be a postgres:// URL (unset it to use SQLite in DATA_DIR)');
  return raw;
}

/** `WEBHOOKS_ALLOW_PRIVATE`: 1 or 0 (unset: 0); anything else is a mistake worth stopping for. */
function webhooksAllowPrivateFrom(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  throw new Error(`WEBHOOKS_ALLOW_PRIVATE must be 1 or 0, got "${raw}"`);
}

function deliveryAccessLogFrom(raw: string | undefined): DeliveryAccessLog {
  if (raw === undefined || raw === '') return 'summary';
  const mode = DELIVERY_ACCESS_LOG_MODES.find((each) => each === raw);
  if (mode === undefined)
    throw new Error(`DELIVERY_ACCESS_LOG must be summary or each, got "${raw}"`);
  return mode;
}

function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a number >= 0, got "${raw}"`);
  return value;
}

function millisecondsFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9][0-9]*$/.test(raw))
    throw new Error(`${name} must be a whole number of milliseconds > 0, got "${raw}"`);
  return Number(raw);
}

function wholeNumberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9][0-9]*$/.test(raw))
    throw new Error(`${name} must be a whole number > 0, got "${raw}"`);
  return Number(raw);
}

/** Event ids must outlive the week in which a client may send an event again. */
function experimentEventDaysFrom(env: NodeJS.ProcessEnv): number {
  const name = 'EXPERIMENT_EVENT_RETENTION_DAYS';
  const days = wholeNumberFrom(env, name, DEFAULT_RETENTION.experimentEventDays);
  if (days < MAX_EVENT_AGE_DAYS)
    throw new Error(
      `${name} must be at least ${MAX_EVENT_AGE_DAYS} (days an event id is remembered)`,
    );
  return days;
}

/** A whole number of seconds, 0 included (off). */
function secondsFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^(0|[1-9][0-9]*)$/.test(raw))
    throw new Error(`${name} must be a whole number of seconds >= 0, got "${raw}"`);
  return Number(raw);
}

/** The names proxy-addr (Fastify's `trustProxy`) gives to the private address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  // A prefix length, or (IPv4 only) a netmask such as 255.255.255.0.
  if (/^[0-9]{1,3}$/.test(bits)) return Number(bits) <= (version === 4 ? 32 : 128);
  return version === 4 && isIP(bits) === 4;
}

/**
 * `TRUST_PROXY`: unset (no proxy: the peer's address is the client's), or a comma-separated
 * list of the proxies' addresses and ranges.
 */
export function trustedProxiesFrom(raw: string | undefined): TrustedProxies {
  if (raw === undefined || raw.trim() === '') return false;
  const entries = raw.split(',').map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isAddressOrRange(entry));
  if (wrong.length > 0)
    throw new Error(
      `TRUST_PROXY must be a comma-separated list of the proxies' addresses or CIDR ranges (or loopback, linklocal, uniquelocal); "${wrong.join('", "')}" is none of these`,
    );
  return entries;
}

/**
 * `CORS_ORIGINS`: unset (only this origin), or a comma-separated list of exact origins
 * (`https://console.example.com`, `http://127.0.0.1:8081`): scheme, host and port, nothing
 * more, as a browser writes them in its `Origin` header.
 */
export function corsOriginsFrom(raw: string | undefined): readonly string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const entries = raw.split(',').map((entry) => entry.trim());
  const wrong = entries.filter((entry) => originOf(entry) !== entry);
  if (wrong.length > 0)
    throw new Error(
      `CORS_ORIGINS must be a comma-separated list of origins such as https://console.example.com (http or https, host and port, no path or trailing slash); ${wrong.map(describeWrongOrigin).join(', ')}`,
    );
  return [...new Set(entries)];
}

/** The origin a browser would send for `entry`, if it names an http(s) origin at all. */
function originOf(entry: string): string | undefined {
  try {
    const url = new URL(entry);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function describeWrongOrigin(entry: string): string {
  const origin = originOf(entry);
  if (entry === '') return 'an entry is empty';
  return origin === undefined
    ? `"${entry}" is not one`
    : `"${entry}" is not one (its origin is ${origin})`;
}

function httpSettingsFrom(env: NodeJS.ProcessEnv): HttpSettings {
  const settings = {
    headersTimeoutMs: millisecondsFrom(
      env,
      'HEADERS_TIMEOUT_MS',
      DEFAULT_HTTP_SETTINGS.headersTimeoutMs,
    ),
    requestTimeoutMs: millisecondsFrom(
      env,
      'REQUEST_TIMEOUT_MS',
      DEFAULT_HTTP_SETTINGS.requestTimeoutMs,
    ),
    keepAliveTimeoutMs: millisecondsFrom(
      env,
      'KEEP_ALIVE_TIMEOUT_MS',
      DEFAULT_HTTP_SETTINGS.keepAliveTimeoutMs,
    ),
    trustProxy: trustedProxiesFrom(env.TRUST_PROXY),
  };
  // Node refuses a headers timeout longer than the whole request's.
  if (settings.headersTimeoutMs > settings.requestTimeoutMs)
    throw new Error('HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS');
  return settings;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceSettings {
  return {
    port: numberFrom(env, 'PORT', 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl: databaseUrlFrom(env),
    databasePoolSize: numberFrom(env, 'DATABASE_POOL_SIZE', 10),
    rateLimit: {
      rps: numberFrom(env, 'RATE_LIMIT_RPS', 50),
      burst: numberFrom(env, 'RATE_LIMIT_BURST', 200),
    },
    deliveryRateLimit: {
      rps: numberFrom(env, 'DELIVERY_RATE_LIMIT_RPS', DEFAULT_DELIVERY_RATE_LIMIT.rps),
      burst: numberFrom(env, 'DELIVERY_RATE_LIMIT_BURST', DEFAULT_DELIVERY_RATE_LIMIT.burst),
    },
    resultsTickMs: wholeNumberFrom(env, 'RESULTS_TICK_MS', DEFAULT_RESULTS_JOB.tickMs),
    eventBudget: {
      perSecond: numberFrom(env, 'EVENTS_PER_KEY_PER_SECOND', DEFAULT_EVENT_BUDGET.perSecond),
      burst: numberFrom(env, 'EVENTS_PER_KEY_BURST', DEFAULT_EVENT_BUDGET.burst),
    },
    deliveryAccessLog: deliveryAccessLogFrom(env.DELIVERY_ACCESS_LOG),
    editPool: {
      ...DEFAULT_EDIT_POOL,
      workers: Math.max(1, numberFrom(env, 'EDIT_WORKERS', DEFAULT_EDIT_POOL.workers)),
      cacheBytes:
        numberFrom(env, 'EDIT_CACHE_MB', DEFAULT_EDIT_POOL.cacheBytes / 2 ** 20) * 2 ** 20,
    },
    http: httpSettingsFrom(env),
    serveSourceMaps: env.SERVE_SOURCE_MAPS === '1',
    corsOrigins: corsOriginsFrom(env.CORS_ORIGINS),
    deliveryMaxStreams: wholeNumberFrom(
      env,
      'DELIVERY_MAX_STREAMS',
      DEFAULT_STREAM_SETTINGS.maxStreams,
    ),
    deliveryMaxStreamsPerAddress: wholeNumberFrom(
      env,
      'DELIVERY_MAX_STREAMS_PER_ADDRESS',
      DEFAULT_STREAM_SETTINGS.maxStreamsPerAddress,
    ),
    deliveryCdnMaxAgeSeconds: secondsFrom(env, 'DELIVERY_CDN_MAX_AGE', 0),
    webhooksAllowPrivate: webhooksAllowPrivateFrom(env.WEBHOOKS_ALLOW_PRIVATE),
    webhookSender: webhookSenderSettingsFrom(env),
    retention: {
      ...DEFAULT_RETENTION,
      deliveredDays: wholeNumberFrom(
        env,
        'WEBHOOK_DELIVERED_RETENTION_DAYS',
        DEFAULT_RETENTION.deliveredDays,
      ),
      failedDays: wholeNumberFrom(
        env,
        'WEBHOOK_FAILED_RETENTION_DAYS',
        DEFAULT_RETENTION.failedDays,
      ),
      deletedWebhookDays: wholeNumberFrom(
        env,
        'WEBHOOK_DELETED_RETENTION_DAYS',
        DEFAULT_RETENTION.deletedWebhookDays,
      ),
      sessionDays: wholeNumberFrom(env, 'SESSION_RETENTION_DAYS', DEFAULT_RETENTION.sessionDays),
      experimentEventDays: experimentEventDaysFrom(env),
      intervalMs: millisecondsFrom(env, 'PRUNE_INTERVAL_MS', DEFAULT_RETENTION.intervalMs),
    },
    people: peopleSettingsFrom(env),
  };
}

/**
 * `PUBLIC_URL`, `SESSION_IDLE_MINUTES`, `SESSION_MAX_HOURS` and the deployment's SSO
 * connection (`OIDC_*`): all of it or none, a half-set connection is a mistake worth stopping for.
 */
export function peopleSettingsFrom(env: NodeJS.ProcessEnv): PeopleSettings {
  const publicUrl = env.PUBLIC_URL?.trim() || undefined;
  if (publicUrl !== undefined && originOf(publicUrl) === undefined) {
    throw new Error(
      `PUBLIC_URL must be an http(s) URL such as https://console.example.com, got "${publicUrl}"`,
    );
  }
  const idleMinutes = wholeNumberFrom(env, 'SESSION_IDLE_MINUTES', SESSION_IDLE_MINUTES.default);
  const maxHours = wholeNumberFrom(env, 'SESSION_MAX_HOURS', SESSION_MAX_HOURS.default);
  if (idleMinutes < SESSION_IDLE_MINUTES.min || idleMinutes > SESSION_IDLE_MINUTES.max)
    throw new Error(
      `SESSION_IDLE_MINUTES must be between ${SESSION_IDLE_MINUTES.min} and ${SESSION_IDLE_MINUTES.max}`,
    );
  if (maxHours < SESSION_MAX_HOURS.min || maxHours > SESSION_MAX_HOURS.max)
    throw new Error(
      `SESSION_MAX_HOURS must be between ${SESSION_MAX_HOURS.min} and ${SESSION_MAX_HOURS.max}`,
    );
  const deploymentSso = deploymentSsoFrom(env, publicUrl);
  return {
    ...(publicUrl !== undefined ? { publicUrl: originOf(publicUrl) as string } : {}),
    sessionDefaults: { idleMinutes, maxHours },
    ...(deploymentSso ? { deploymentSso } : {}),
  };
}

function deploymentSsoFrom(
  env: NodeJS.ProcessEnv,
  publicUrl: string | undefined,
): DeploymentSso | undefined {
  const issuer = env.OIDC_ISSUER?.trim() || undefined;
  const clientId = env.OIDC_CLIENT_ID?.trim() || undefined;
  const clientSecret = env.OIDC_CLIENT_SECRET || undefined;
  const given = [issuer, clientId, clientSecret].filter((value) => value !== undefined);
  if (given.length === 0) return undefined;
  if (given.length < 3 || publicUrl === undefined)
    throw new Error(
      'SSO needs OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and PUBLIC_URL together (the redirect URI is PUBLIC_URL/api/v1/auth/callback)',
    );
  const defaultRole = env.OIDC_DEFAULT_ROLE?.trim() || 'viewer';
  if (!(ROLES as readonly string[]).includes(defaultRole) && defaultRole !== 'refuse')
    throw new Error(
      `OIDC_DEFAULT_ROLE must be admin, editor, viewer or refuse, got "${defaultRole}"`,
    );
  const jitOrganizationId = env.OIDC_JIT_ORGANIZATION?.trim() || undefined;
  return {
    connection: {
      issuer: issuer as string,
      client_id: clientId as string,
      email_domains: [],
      groups_claim: env.OIDC_GROUPS_CLAIM?.trim() || 'groups',
      group_roles: groupRolesFrom(env.OIDC_GROUP_ROLES),
      default_role: defaultRole as Role | 'refuse',
      jit: jitOrganizationId !== undefined,
    },
    clientSecret: clientSecret as string,
    jitOrganizationId,
  };
}

/** `OIDC_GROUP_ROLES="console-admins=admin,engineering=editor"`: a group's role. */
export function groupRolesFrom(raw: string | undefined): Record<string, Role> {
  const roles: [string, Role][] = [];
  if (raw === undefined || raw.trim() === '') return {};
  for (const entry of raw.split(',')) {
    const at = entry.lastIndexOf('=');
    const group = entry.slice(0, at).trim();
    const role = entry.slice(at + 1).trim();
    if (at <= 0 || group === '' || !(ROLES as readonly string[]).includes(role))
      throw new Error(
        `OIDC_GROUP_ROLES must be group=role pairs separated by commas (roles: admin, editor, viewer); "${entry.trim()}" is not one`,
      );
    roles.push([group, role as Role]);
  }
  // fromEntries defines each group as its own key, "__proto__" included.
  return Object.fromEntries(roles);
}
