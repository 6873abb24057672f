/**
 * One structured log line per request: method, URL, status, time and the key's id, never a
 * secret. A success's line holds only those fields (the URL's key-like runs replaced first),
 * so it skips pino's costly redaction; a failure's line carries the error and is redacted.
 * Successful delivery reads go to a tally instead when one is given (delivery-read-log.ts).
 */
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino';
import { redactSecrets } from '../domain/api-key-secrets';
import { isDeliveryRead, type DeliveryReadTally } from './delivery-read-log';

export class OneLinePerRequest extends LogController {
  /** The request-line logger of each service logger, made on its first request. */
  private readonly lineLoggers = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();

  /** `deliveryReads`: where successful delivery reads are counted; each is logged without. */
  constructor(private readonly deliveryReads?: DeliveryReadTally) {
    super();
  }

  override incomingRequest(): void {
    // Logged once, when the response is done.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    if (
      this.deliveryReads &&
      !error &&
      status < 400 &&
      isDeliveryRead(request.method, request.url)
    ) {
      this.deliveryReads.count(status);
      return;
    }
    const line = {
      method: request.method,
      // A key pasted into a URL by mistake must not reach the logs.
      url: redactSecrets(request.url),
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      key: request.principal?.key?.id,
      session: request.principal?.session?.id,
    };
    if (error) {
      reply.log.error({ ...line, err: error }, 'request failed');
      return;
    }
    this.lineLogger(request.server.log).info(
      { [this.requestIdLogLabel]: request.id, ...line },
      'request',
    );
  }

  private lineLogger(serviceLogger: FastifyBaseLogger): FastifyBaseLogger {
    let logger = this.lineLoggers.get(serviceLogger);
    if (!logger) {
      logger = serviceLogger.child({}, { redact: [] });
      this.lineLoggers.set(serviceLogger, logger);
    }
    return logger;
  }
}

/**
 * `request.log`, made only when something writes to it. Fastify gives every request a
 * child of the service's logger, and pino serialises the child's bindings when it is made:
 * a cost on every request, for a logger that a request which succeeds never uses (its line
 * goes through `OneLinePerRequest`'s sibling logger). Behaves as that child in all else.
 */
class LazyRequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

// The six levels and `silent` forward to the child, made on the first call.
for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const) {
  Object.defineProperty(LazyRequestLogger.prototype, level, {
    value: function (this: { logger: FastifyBaseLogger }, ...args: Parameters<LogFn>) {
      (this.logger[level] as (...rest: Parameters<LogFn>) => void)(...args);
    },
  });
}

/** Fastify's `childLoggerFactory`: request loggers that cost nothing until used. */
export function lazyRequestLoggers(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // The level methods are defined on the prototype just above, where TypeScript cannot see.
  return new LazyRequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
