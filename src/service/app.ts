/**
 * The provisioning service as a Fastify instance: plugins, then routes. `server.ts` starts
 * it; tests build one per test on a temporary database and use `inject`.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { MAX_BODY_BYTES } from '../contract/endpoints';
import { systemClock, type Clock } from './domain/clock';
import { ApiKeys } from './domain/api-keys';
import { ClientKeys } from './domain/client-keys';
import { ConfigService } from './domain/config-service';
import { Reviews } from './domain/reviews';
import { Webhooks } from './domain/webhooks';
import { Metrics } from './domain/metrics';
import { DEFAULT_SESSION_LENGTHS, Sessions, type SessionDefaults } from './domain/sessions';
import { SessionCookies } from './plugins/session-cookies';
import { SsoSignIns, type RelyingParty } from './sign-in/sso-sign-ins';
import { AesTransactionSeal, newSealKey } from './sign-in/transaction-seal';
import { OidcRelyingParty } from './sign-in/oidc-relying-party';
import { Invitations } from './domain/invitations';
import { Members } from './domain/members';
import { OrganizationSettingsService } from './domain/organization-settings';
import { SignIns } from './domain/sign-ins';
import {
  PasswordSignIns,
  type PasswordRules,
  type SignInThrottle,
} from './domain/password-sign-ins';
import { type DeploymentSso } from './domain/sso-identity';
import { registerPeopleRoutes } from './routes/people-routes';
import { PasswordPolicy } from './domain/passwords';
import { StoreSignInThrottle } from './domain/sign-in-throttle';
import { PasswordBlocklist } from './sign-in/password-blocklist';
import { authentication } from './plugins/authentication';
import {
  DEFAULT_HTTP_SETTINGS,
  httpServerOptions,
  registerConnectionRules,
  type HttpSettings,
} from './plugins/connections';
import { registerCompression } from './plugins/compression';
import { registerConsole } from './plugins/console-static';
import { consoleCorsRule, deliveryCorsRule, registerCors } from './plugins/cors';
import { frameworkErrorHandler, registerErrorHandler } from './plugins/error-handler';
import { registerJsonBodies } from './plugins/json-body';
import { lazyRequestLoggers, OneLinePerRequest } from './plugins/request-log';
import {
  DEFAULT_DELIVERY_READ_LOG,
  DeliveryReadTally,
  registerDeliveryReadSummary,
  type DeliveryReadLogSettings,
} from './plugins/delivery-read-log';
import {
  DEFAULT_DELIVERY_RATE_LIMIT,
  registerRateLimit,
  type RateLimitSettings,
} from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerApiKeyRoutes } from './routes/api-key-routes';
import { registerClientKeyRoutes } from './routes/client-key-routes';
import { registerDeliveryRoutes } from './routes/delivery-routes';
import { registerStreamRoute } from './routes/stream-route';
import { DEFAULT_STREAM_SETTINGS, StreamHub, type StreamSettings } from './delivery/stream-hub';
import { createDeliveryReads } from './delivery/store-delivery-reads';
import {
  DEFAULT_VIEW_CACHE_LIMITS,
  DeliveryViewCache,
  type ViewCacheLimits,
} from './delivery/view-cache';
import { registerAuthRoutes } from './routes/auth-routes';
import { registerConfigRoutes } from './routes/config-routes';
import { registerReviewRoutes } from './routes/review-routes';
import { registerMetaRoutes } from './routes/meta-routes';
import { DEFAULT_EDIT_POOL, EditPool, type EditPoolSettings } from './edit-work/edit-pool';
import type { Store } from './store/store';
import { registerWebhookRoutes } from './routes/webhook-routes';
import { registerMetricRoutes } from './routes/experiment-routes';
import { registerAuditRoutes } from './routes/audit-routes';
import { AuditTrail } from './domain/audit-trail';
import type { UrlPolicy } from './webhooks/url-policy';
import { registerWebhookSender } from './webhooks/register-sender';
import { DEFAULT_RETENTION, type RetentionSettings } from './retention/pruner';
import { registerPruner } from './retention/register-pruner';
import {
  DEFAULT_EVENT_BUDGET,
  EventBudget,
  EventIngestion,
  type EventBudgetSettings,
} from './domain/experiments/event-ingestion';
import { LiveTestsReader } from './domain/experiments/live-tests';
import { ResultsComputation } from './domain/experiments/results-computation';
import { ExperimentResultsReads } from './domain/experiments/results-reads';
import {
  DEFAULT_RESULTS_JOB,
  registerResultsJob,
  ResultsJob,
  type ResultsJobSettings,
} from './experiments/results-job';
import { registerEventRoutes, registerResultsRoutes } from './routes/experiment-results-routes';
import { Environments } from './domain/environments';
import { Promotions } from './domain/promotions';
import { Schedules } from './domain/schedules';
import { registerEnvironmentRoutes } from './routes/environment-routes';
import {
  DEFAULT_SCHEDULER,
  registerScheduler,
  Scheduler,
  type SchedulerSettings,
} from './scheduling/scheduler';
import type { WebhookSendingOptions } from './webhooks/sender-wiring';

export interface AppOptions {
  readonly store: Store;
  readonly clock?: Clock;
  readonly rateLimit?: RateLimitSettings;
  /** The delivery URLs' own limit per client address; DEFAULT_DELIVERY_RATE_LIMIT when absent. */
  readonly deliveryRateLimit?: RateLimitSettings;
  /** How many apps' views and parsed configs the delivery endpoints keep in memory. */
  readonly deliveryViewCache?: ViewCacheLimits;
  /** Successful delivery reads: a summary line a minute (default) or a line each. */
  readonly deliveryReadLog?: DeliveryReadLogSettings;
  /** `DELIVERY_CDN_MAX_AGE`: seconds a shared cache may answer delivery views from its copy (0: none). */
  readonly deliveryCdnMaxAgeSeconds?: number;
  /** Delivery streams: how many at most, their heartbeat, the slow-reader bound. */
  readonly streams?: Partial<StreamSettings>;
  /** The built console (dist/); not served when absent. */
  readonly consoleDir?: string;
  /** Serve the console's source maps (`.map`); they are not served by default. */
  readonly serveSourceMaps?: boolean;
  /** Other origins whose consoles may call this API and whose APIs this console may call. */
  readonly corsOrigins?: readonly string[];
  /** Timeouts and trusted proxies (plugins/connections.ts); their defaults when absent. */
  readonly http?: HttpSettings;
  readonly logger?: FastifyServerOptions['logger'];
  /** Settings of the worker threads that compute edits, started and closed with the app. */
  readonly editPool?: EditPoolSettings;
  /** Or a pool the caller owns and closes, shared by several apps (tests). */
  readonly sharedEditPool?: EditPool;
  /** Which webhook URLs may be registered (`WEBHOOKS_ALLOW_PRIVATE`); public https: only when absent. */
  readonly webhookUrlPolicy?: UrlPolicy;
  /**
   * The webhook sender: its timeout, retry schedule and resolver (their defaults when absent);
   * `false`: no sender (tests that claim the outbox by hand, apps sharing a database).
   */
  readonly webhookSender?: Omit<WebhookSendingOptions, 'policy'> | false;
  /**
   * Retention: how long settled webhook messages and deleted endpoints are kept, and how
   * often the pruner runs (DEFAULT_RETENTION's where absent); `false`: no pruner (tests).
   */
  readonly retention?: Partial<RetentionSettings> | false;
  /** Scheduled changes: how often an instance looks for due ones; `false`: none run (tests). */
  readonly scheduler?: Partial<SchedulerSettings> | false;
  /** Experiment results: how often the background job looks for stale ones; `false`: never (tests). */
  readonly resultsJob?: Partial<ResultsJobSettings> | false;
  /** Events a client key may send an instance each second. */
  readonly eventBudget?: EventBudgetSettings;
  /** Sign-in and sessions: the public URL, session lengths, the default SSO connection. */
  readonly people?: PeopleSettings;
}

export interface PeopleSettings {
  /**
   * `PUBLIC_URL`: where people reach the service; its scheme picks the session cookie
   * (`__Host-sid` over https) and it makes the identity provider's redirect URI.
   */
  readonly publicUrl?: string;
  /** `SESSION_IDLE_MINUTES`, `SESSION_MAX_HOURS`: the deployment's session lengths. */
  readonly sessionDefaults?: SessionDefaults;
  /** `OIDC_*`: the deployment's SSO connection, serving organizations without their own. */
  readonly deploymentSso?: DeploymentSso;
  /** The password rules and the throttle; the service's own when absent. */
  readonly passwords?: PasswordRules;
  readonly throttle?: SignInThrottle;
  /** The OpenID Connect client; the service's own when absent. */
  readonly relyingParty?: RelyingParty;
}

export const DEFAULT_RATE_LIMIT: RateLimitSettings = { rps: 50, burst: 200 };

/** Log fields that may carry a secret (an API key's secret): never written. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'request.headers.authorization',
  'secret',
  '*.secret',
];

/** The logger the server runs with: pino at `level`, with the secret-bearing fields redacted. */
export function serviceLoggerOptions(level: string) {
  return { level, redact: { paths: [...REDACTED_LOG_PATHS], censor: '[redacted]' } };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const readLog = options.deliveryReadLog ?? DEFAULT_DELIVERY_READ_LOG;
  const readTally = readLog.mode === 'summary' ? new DeliveryReadTally() : undefined;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: MAX_BODY_BYTES,
    logController: new OneLinePerRequest(readTally),
    childLoggerFactory: lazyRequestLoggers,
    frameworkErrors: frameworkErrorHandler,
    ...httpServerOptions(options.http ?? DEFAULT_HTTP_SETTINGS),
  });

  if (readTally) registerDeliveryReadSummary(app, readTally, readLog.intervalMs);
  registerJsonBodies(app);
  registerErrorHandler(app);
  const corsOrigins = options.corsOrigins ?? [];
  registerSecurityHeaders(app, { connectOrigins: corsOrigins });
  // Before authentication: a preflight carries no key. The delivery rule comes first: any
  // origin reads those URLs, whatever the console's origins are.
  registerCors(app, { rules: [deliveryCorsRule(), consoleCorsRule(corsOrigins)] });
  // One for the app: the view GETs and the stream read through the same cache.
  const deliveryReads = createDeliveryReads({
    store: options.store,
    cache: new DeliveryViewCache(options.deliveryViewCache ?? DEFAULT_VIEW_CACHE_LIMITS),
  });
  const streamSettings = { ...DEFAULT_STREAM_SETTINGS, ...options.streams };
  const streams = new StreamHub(deliveryReads, options.store.liveChanges, streamSettings, app.log);
  // Before the connection rules: their close waits for every connection to end, so the
  // streams must have ended first.
  app.addHook('preClose', async () => streams.close());
  registerConnectionRules(app);
  const people = options.people ?? {};
  const publicUrl = people.publicUrl === undefined ? undefined : new URL(people.publicUrl);
  const cookies = new SessionCookies(publicUrl);
  const sessionDefaults = people.sessionDefaults ?? DEFAULT_SESSION_LENGTHS;
  const sessions = new Sessions(options.store, clock, sessionDefaults);
  await app.register(authentication, { store: options.store, clock, sessions, cookies });
  await registerRateLimit(
    app,
    options.rateLimit ?? DEFAULT_RATE_LIMIT,
    options.deliveryRateLimit ?? DEFAULT_DELIVERY_RATE_LIMIT,
  );
  await registerCompression(app);

  const { store } = options;
  const edits = options.sharedEditPool ?? new EditPool(options.editPool ?? DEFAULT_EDIT_POOL);
  if (!options.sharedEditPool) {
    app.addHook('onReady', async () => edits.start());
    app.addHook('onClose', () => edits.close());
  }
  const urlPolicy = options.webhookUrlPolicy ?? { allowPrivate: false };
  // The composition root: each domain object is made here, once, and handed to its routes.
  const configs = new ConfigService(store, clock, edits);
  const reviews = new Reviews(store, clock, configs);
  const apiKeys = new ApiKeys(store, clock);
  const clientKeys = new ClientKeys(store, clock);
  const webhooks = new Webhooks(store, clock, urlPolicy);

  registerMetaRoutes(app, store);
  const passwords = people.passwords ?? new PasswordPolicy(await PasswordBlocklist.load());
  const throttle = people.throttle ?? new StoreSignInThrottle(store);
  const signIns = new SignIns(store, clock, sessions, people.deploymentSso);
  const sealKey = await store.serviceSecret('sign_in_seal', newSealKey(), clock().toISOString());
  const sso = new SsoSignIns(
    signIns,
    people.relyingParty ?? new OidcRelyingParty(),
    new AesTransactionSeal(sealKey, clock),
    cookies,
  );
  const environments = new Environments(store, clock);
  registerAuthRoutes(app, { sessions, cookies, sso, owners: environments });
  registerPeopleRoutes(app, {
    members: new Members(store, clock),
    invitations: new Invitations(store, clock, sessions, signIns, passwords),
    settings: new OrganizationSettingsService(
      store,
      clock,
      sessionDefaults,
      people.deploymentSso !== undefined,
    ),
    signIns,
    passwordSignIns: new PasswordSignIns(store, clock, sessions, passwords, throttle),
    cookies,
    owners: environments,
  });
  registerConfigRoutes(app, configs);
  registerReviewRoutes(app, reviews);
  registerApiKeyRoutes(app, apiKeys);
  registerClientKeyRoutes(app, clientKeys);
  registerWebhookRoutes(app, webhooks);
  registerAuditRoutes(app, new AuditTrail(store));
  const liveTests = new LiveTestsReader({ store, configData: deliveryReads.configData });
  registerMetricRoutes(app, new Metrics(store, clock, liveTests));
  const schedules = new Schedules(store, clock, configs);
  registerEnvironmentRoutes(app, {
    environments,
    schedules,
    promotions: new Promotions(store, configs),
  });
  if (options.scheduler !== false) {
    const settings = { ...DEFAULT_SCHEDULER, ...options.scheduler };
    registerScheduler(app, new Scheduler(store, schedules, clock, settings, app.log));
  }
  if (options.webhookSender !== false) {
    registerWebhookSender(app, store, clock, { ...options.webhookSender, policy: urlPolicy });
  }
  if (options.retention !== false) {
    registerPruner(app, store, clock, { ...DEFAULT_RETENTION, ...options.retention });
  }
  registerEventRoutes(
    app,
    new EventIngestion({
      store,
      clock,
      liveTests,
      budget: new EventBudget(options.eventBudget ?? DEFAULT_EVENT_BUDGET, clock),
    }),
  );
  const computation = new ResultsComputation({
    store,
    clock,
    liveTests,
    metricsOf: (accountId) => store.listMetrics(accountId),
  });
  const resultsJob =
    options.resultsJob === false
      ? undefined
      : new ResultsJob({
          store,
          computation,
          clock,
          settings: { ...DEFAULT_RESULTS_JOB, ...options.resultsJob },
          log: app.log,
        });
  if (resultsJob) registerResultsJob(app, resultsJob);
  registerResultsRoutes(
    app,
    new ExperimentResultsReads({
      store,
      clock,
      liveTests,
      wakeJob: () => resultsJob?.wake(),
    }),
  );
  registerDeliveryRoutes(app, {
    reads: deliveryReads,
    cdnMaxAgeSeconds: options.deliveryCdnMaxAgeSeconds ?? 0,
  });
  registerStreamRoute(app, {
    reads: deliveryReads,
    streams,
    maxStreams: streamSettings.maxStreams,
    maxStreamsPerAddress: streamSettings.maxStreamsPerAddress,
  });
  await registerConsole(app, options.consoleDir, options.serveSourceMaps === true, corsOrigins);
  return app;
}
