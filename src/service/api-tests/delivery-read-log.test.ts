/**
 * How delivery reads reach the log: a successful read (200, 304) is counted into one
 * summary line per interval instead of a line each, a failing one keeps its own line, and
 * `each` logs every read as any other request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serviceLoggerOptions } from '../app';
import { isDeliveryRead, type DeliveryReadLogSettings } from '../plugins/delivery-read-log';
import { ok, send, SHOP_YAML } from '../testing/api';
import { logCollector } from '../testing/log-collector';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function started(deliveryReadLog: DeliveryReadLogSettings) {
  const log = logCollector();
  service = await startTestService({
    initialYaml: SHOP_YAML,
    deliveryRateLimit: { rps: 1, burst: 4 },
    logger: { ...serviceLoggerOptions('info'), stream: log.stream },
    deliveryReadLog,
  });
  const { key } = await ok(service, service.adminKey, 'createClientKey', {
    payload: { name: 'Apps' },
  });
  await service.app.ready();
  return { service, log, key };
}

function view(running: TestService, key: string, headers: Record<string, string> = {}) {
  return send(running, undefined, 'getDeliveryView', {
    params: { client_key: key, app_id: 'checkout' },
    headers,
  });
}

const requestLines = (log: ReturnType<typeof logCollector>, status: number) =>
  log.entries().filter((entry) => entry.msg === 'request' && entry.status === status);
const failureLines = (log: ReturnType<typeof logCollector>, status: number) =>
  log.entries().filter((entry) => entry.msg === 'request failed' && entry.status === status);
const summaries = (log: ReturnType<typeof logCollector>) =>
  log.entries().filter((entry) => entry.msg === 'delivery reads');

describe('delivery reads in the log', () => {
  it('are counted into a summary when they succeed, and logged one by one when they fail', async () => {
    const { service: running, log, key } = await started({ mode: 'summary', intervalMs: 60_000 });
    const first = await view(running, key);
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect((await view(running, key, { 'if-none-match': etag })).statusCode).toBe(304);
    const assignment = await send(running, undefined, 'getAssignment', {
      params: { client_key: key, app_id: 'checkout' },
      query: { unit: 'user-1' },
    });
    expect(assignment.statusCode).toBe(200);
    const unknown = await view(running, `ck_${'x'.repeat(40)}`);
    expect(unknown.statusCode).toBe(404);
    // The fifth request in the window is over the burst of 4.
    expect((await view(running, key, { 'if-none-match': etag })).statusCode).toBe(429);

    expect(requestLines(log, 200)).toEqual([]);
    expect(requestLines(log, 304)).toEqual([]);
    expect(failureLines(log, 404).length + requestLines(log, 404).length).toBe(1);
    expect(failureLines(log, 429).length + requestLines(log, 429).length).toBe(1);
    expect(summaries(log)).toEqual([]);

    // The interval has not passed: the close writes what was counted.
    await running.close();
    service = undefined;
    expect(summaries(log)).toEqual([
      expect.objectContaining({ level: 30, delivery_reads: { 200: 2, 304: 1 } }),
    ]);
  });

  it('write their summary every interval, and none for an interval without reads', async () => {
    const { service: running, log, key } = await started({ mode: 'summary', intervalMs: 40 });
    const etag = String((await view(running, key)).headers.etag);
    await view(running, key, { 'if-none-match': etag });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(summaries(log)).toEqual([
      expect.objectContaining({ delivery_reads: { 200: 1, 304: 1 }, interval_ms: 40 }),
    ]);
    await view(running, key, { 'if-none-match': etag });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(summaries(log).map((entry) => entry.delivery_reads)).toEqual([
      { 200: 1, 304: 1 },
      { 304: 1 },
    ]);
  });

  it('are logged one line each with DELIVERY_ACCESS_LOG=each, and never summarized', async () => {
    const { service: running, log, key } = await started({ mode: 'each', intervalMs: 40 });
    const etag = String((await view(running, key)).headers.etag);
    expect((await view(running, key, { 'if-none-match': etag })).statusCode).toBe(304);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(requestLines(log, 304)).toEqual([
      expect.objectContaining({ method: 'GET', url: expect.stringContaining('/apps/checkout') }),
    ]);
    expect(summaries(log)).toEqual([]);
  });
});

describe('isDeliveryRead', () => {
  it('is the view and the assignment GETs, with or without a query, and nothing else', () => {
    const key = `ck_${'a'.repeat(40)}`;
    expect(isDeliveryRead('GET', `/api/v1/delivery/${key}/apps/checkout`)).toBe(true);
    expect(isDeliveryRead('HEAD', `/api/v1/delivery/${key}/apps/checkout`)).toBe(true);
    expect(isDeliveryRead('GET', `/api/v1/delivery/${key}/apps/checkout/assignment?unit=u`)).toBe(
      true,
    );
    expect(isDeliveryRead('GET', `/api/v1/delivery/${key}/stream`)).toBe(false);
    expect(isDeliveryRead('OPTIONS', `/api/v1/delivery/${key}/apps/checkout`)).toBe(false);
    expect(isDeliveryRead('GET', `/api/v1/delivery/${key}/apps/checkout/other`)).toBe(false);
    expect(isDeliveryRead('GET', '/api/v1/client-keys')).toBe(false);
  });
});
