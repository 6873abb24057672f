/**
 * Request loggers made on first use: nothing is made for a request that never logs, and
 * what is logged carries the request's bindings, level and redaction as pino's child would.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp, serviceLoggerOptions } from '../app';
import { logCollector } from '../testing/log-collector';
import { openTestStore } from '../testing/test-store';
import { lazyRequestLoggers } from './request-log';

function parentWithCount(level = 'info') {
  const log = logCollector();
  const parent = pino({ ...serviceLoggerOptions(level) }, log.stream);
  let made = 0;
  const child = parent.child;
  // pino's children inherit from their parent, so this counts their children too.
  parent.child = function (this: typeof parent, ...args: Parameters<typeof child>) {
    made++;
    return child.apply(this, args);
  } as typeof parent.child;
  return { parent, log, made: () => made };
}

describe('lazy request loggers', () => {
  it('make no child until a line is written, then one, with its bindings', () => {
    const { parent, log, made } = parentWithCount();
    const logger = lazyRequestLoggers(parent, { reqId: 'req-7' }, {});
    expect(made()).toBe(0);
    expect(logger.level).toBe('info');
    logger.debug('below the level');
    logger.info({ step: 1 }, 'first');
    logger.error({ headers: { authorization: 'Bearer sk_secret' } }, 'second');
    expect(made()).toBe(1);
    expect(log.entries()).toEqual([
      expect.objectContaining({ reqId: 'req-7', step: 1, msg: 'first', level: 30 }),
      expect.objectContaining({
        reqId: 'req-7',
        headers: { authorization: '[redacted]' },
        msg: 'second',
        level: 50,
      }),
    ]);
  });

  it('keep a route’s level, and their own children', () => {
    const { parent, log, made } = parentWithCount();
    const logger = lazyRequestLoggers(parent, { reqId: 'req-8' }, { level: 'warn' });
    expect(logger.level).toBe('warn');
    logger.info('not written');
    logger.child({ part: 'inner' }).warn('written');
    logger.level = 'info';
    logger.info('written too');
    expect(made()).toBe(2);
    expect(log.entries()).toEqual([
      expect.objectContaining({ reqId: 'req-8', part: 'inner', msg: 'written' }),
      expect.objectContaining({ reqId: 'req-8', msg: 'written too' }),
    ]);
  });

  it('are what the service’s requests log through', async () => {
    const log = logCollector();
    const { store, dispose } = await openTestStore();
    const app = await buildApp({
      store,
      logger: { ...serviceLoggerOptions('info'), stream: log.stream },
    });
    app.get('/api/v1/test-logs', async (request) => {
      request.log.info({ note: 'hello' }, 'from the handler');
      return { ok: true };
    });
    const response = await app.inject({ method: 'GET', url: '/api/v1/test-logs' });
    expect(response.statusCode).toBe(200);
    const [handlerLine, requestLine] = log.entries();
    expect(handlerLine).toMatchObject({ msg: 'from the handler', note: 'hello' });
    expect(requestLine).toMatchObject({ msg: 'request', status: 200 });
    expect(handlerLine?.reqId).toBe(requestLine?.reqId);
    await app.close();
    await dispose();
  });
});

describe('the request line', () => {
  it('of each request reaches the log, with its key and not the secret in its URL', async () => {
    const log = logCollector();
    const { store, dispose } = await openTestStore();
    const app = await buildApp({
      store,
      logger: { ...serviceLoggerOptions('info'), stream: log.stream },
    });
    const secret = `sk_${'a'.repeat(40)}`;
    const response = await app.inject({ method: 'GET', url: `/api/v1/health?key=${secret}` });
    expect(response.statusCode).toBe(200);
    expect(log.text()).not.toContain(secret);
    expect(log.entries()).toContainEqual(
      expect.objectContaining({
        level: 30,
        msg: 'request',
        method: 'GET',
        url: '/api/v1/health?key=sk_[redacted]',
        status: 200,
        pid: process.pid,
      }),
    );
    await app.close();
    await dispose();
  });

  it('is not written below the info level', async () => {
    const log = logCollector();
    const { store, dispose } = await openTestStore();
    const app = await buildApp({
      store,
      logger: { ...serviceLoggerOptions('warn'), stream: log.stream },
    });
    const response = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(log.lines).toEqual([]);
    await app.close();
    await dispose();
  });
});
