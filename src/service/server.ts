/**
 * Starts the service: the database in the data directory, the app, the built console, and a
 * clean shutdown on SIGTERM / SIGINT. With `demo`, an empty database gets the demo account.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp, serviceLoggerOptions } from './app';
import { createDemoAccount, type DemoAccount } from './domain/demo-account';
import { batchedStdout } from './log-destination';
import { closeWithin } from './plugins/connections';
import { DEFAULT_DELIVERY_READ_LOG } from './plugins/delivery-read-log';
import type { ServiceSettings } from './settings';
import { openStore } from './store/open-store';

export const CONSOLE_DIR = fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * How long a stop waits for the requests it has received to be answered before it cuts the
 * connections left: the process must be gone within 10 s of SIGTERM.
 */
const DRAIN_DEADLINE_MS = 8_000;

export interface RunningServer {
  readonly url: string;
  readonly demo: DemoAccount | undefined;
  stop(): Promise<void>;
}

export async function startServer(
  settings: ServiceSettings,
  options: { demo: boolean },
): Promise<RunningServer> {
  const store = await openStore(settings);
  const demo =
    options.demo && !(await store.hasAccounts())
      ? await createDemoAccount(store, new Date())
      : undefined;
  const log = batchedStdout();
  const app = await buildApp({
    store,
    rateLimit: settings.rateLimit,
    deliveryRateLimit: settings.deliveryRateLimit,
    eventBudget: settings.eventBudget,
    resultsJob: { tickMs: settings.resultsTickMs },
    deliveryReadLog: { ...DEFAULT_DELIVERY_READ_LOG, mode: settings.deliveryAccessLog },
    deliveryCdnMaxAgeSeconds: settings.deliveryCdnMaxAgeSeconds,
    streams: {
      maxStreams: settings.deliveryMaxStreams,
      maxStreamsPerAddress: settings.deliveryMaxStreamsPerAddress,
    },
    editPool: settings.editPool,
    http: settings.http,
    serveSourceMaps: settings.serveSourceMaps,
    corsOrigins: settings.corsOrigins,
    webhookUrlPolicy: { allowPrivate: settings.webhooksAllowPrivate },
    webhookSender: settings.webhookSender,
    retention: settings.retention,
    people: settings.people,
    ...(existsSync(CONSOLE_DIR) ? { consoleDir: CONSOLE_DIR } : {}),
    logger: { ...serviceLoggerOptions(process.env.LOG_LEVEL ?? 'info'), stream: log.stream },
  });
  await app.listen({ port: settings.port, host: settings.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const host =
    settings.host === '0.0.0.0' || settings.host === '127.0.0.1' ? 'localhost' : settings.host;
  let stopped = false;
  return {
    url: `http://${host}:${port}`,
    demo,
    async stop() {
      if (stopped) return;
      stopped = true;
      await closeWithin(app, DRAIN_DEADLINE_MS);
      await store.close();
      await log.close();
    },
  };
}
