/**
 * The service behind Debian's nginx on loopback, with the configuration docs/deployment.md
 * documents (docs/nginx/, its TLS lines left out): the console and its caching, compression
 * left to the service, a publish reaching a stream subscriber through the proxy, each
 * client's own rate limit, 304s. Then nginx's proxy_cache as a stand-in CDN in front of
 * delivery with DELIVERY_CDN_MAX_AGE: the fleet's polls become one origin request per max-age.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliveryViewSchema } from '../../contract/delivery';
import { API_BASE_PATH, MAX_BODY_BYTES } from '../../contract/endpoints';
import { problemSchema } from '../../contract/problem';
import { serviceLoggerOptions } from '../app';
import { DEFAULT_HTTP_SETTINGS } from '../plugins/connections';
import { ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL } from '../plugins/console-static';
import { editOk, ok, SHOP_YAML } from '../testing/api';
import { logCollector } from '../testing/log-collector';
import {
  freePort,
  NGINX_DOCS_DIR,
  replaceExactly,
  startNginx,
  type RunningNginx,
} from '../testing/nginx';
import { openSse, type SseStream } from '../testing/sse-client';
import {
  startTestService,
  type TestService,
  type TestServiceOptions,
} from '../testing/test-service';

const SITE_CONF = readFileSync(join(NGINX_DOCS_DIR, 'provisioning.conf'), 'utf8');
const PROXY_SNIPPET = join(NGINX_DOCS_DIR, 'provisioning-proxy.conf');
const DEPLOYMENT_DOC = join(import.meta.dirname, '../../../docs/deployment.md');

/** The documented site, on loopback ports and without its TLS lines. */
function documentedSite(servicePort: number, proxyPort: number, redirectPort: number): string {
  let text = replaceExactly(
    SITE_CONF,
    'server 127.0.0.1:8080;',
    `server 127.0.0.1:${servicePort};`,
  );
  text = replaceExactly(text, 'listen 443 ssl http2;', `listen 127.0.0.1:${proxyPort};`);
  text = replaceExactly(text, 'listen 80;', `listen 127.0.0.1:${redirectPort};`);
  text = replaceExactly(text, '/etc/nginx/snippets/provisioning-proxy.conf', PROXY_SNIPPET);
  // The TLS lines, and the listens on every IPv6 address (the test stays on loopback).
  return text
    .split('\n')
    .filter((line) => !/^\s*(ssl_|listen \[::\])/.test(line))
    .join('\n');
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A GET (or `method`) from the loopback address `from` (each a client of its own). */
function call(
  url: string,
  options: {
    from?: string;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    agent?: Agent;
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.from ? { localAddress: options.from } : {}),
        ...(options.agent ? { agent: options.agent } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('latin1'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

let consoleDir: string;
let service: TestService | undefined;
let nginx: RunningNginx | undefined;
let streams: SseStream[] = [];

beforeAll(() => {
  consoleDir = mkdtempSync(join(tmpdir(), 'console-'));
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Console</title>');
  mkdirSync(join(consoleDir, 'assets'));
  writeFileSync(
    join(consoleDir, 'assets', 'entry-abc123.js'),
    `export {};\n${'// x\n'.repeat(800)}`,
  );
  execFileSync(process.execPath, ['scripts/precompress.mjs', join(consoleDir, 'assets')]);
});

afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

afterEach(async () => {
  for (const stream of streams) stream.close();
  streams = [];
  await nginx?.stop();
  nginx = undefined;
  await service?.close();
  service = undefined;
});

async function listen(running: TestService): Promise<number> {
  await running.app.listen({ port: 0, host: '127.0.0.1' });
  const address = running.app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** The service with TRUST_PROXY=127.0.0.1, behind the documented nginx. */
async function behindNginx(options: TestServiceOptions = {}) {
  const running = await startTestService({
    initialYaml: SHOP_YAML,
    consoleDir,
    http: { ...DEFAULT_HTTP_SETTINGS, trustProxy: ['127.0.0.1'] },
    ...options,
  });
  service = running;
  const servicePort = await listen(running);
  const [proxyPort, redirectPort] = [await freePort(), await freePort()];
  nginx = await startNginx(proxyPort, () =>
    [
      // Compression on for every type, site-wide (Debian's nginx.conf turns gzip on for
      // the whole http block): the documented snippet must keep it off the service's answers.
      '    gzip on;',
      '    gzip_types *;',
      '    gzip_min_length 1;',
      documentedSite(servicePort, proxyPort, redirectPort),
    ].join('\n'),
  );
  const clientKey = (await ok(running, running.adminKey, 'createClientKey', {
    payload: { name: 'Apps' },
  })) as { key: string };
  return {
    running,
    proxy: nginx.url,
    redirect: `http://127.0.0.1:${redirectPort}`,
    key: clientKey.key,
    viewUrl: `${nginx.url}${API_BASE_PATH}/delivery/${clientKey.key}/apps/checkout`,
  };
}

async function publish(running: TestService, theme: string): Promise<string> {
  const draft = await editOk(running, running.adminKey, {
    operations: [{ update_app: [{ id: 'checkout', settings: { theme } }] }],
    summary: `Theme ${theme}`,
  });
  return (await ok(running, running.adminKey, 'publishConfig', { params: { id: draft.id } })).id;
}

describe('the documented nginx configuration', () => {
  it('is shown in docs/deployment.md as it is tested', () => {
    const doc = readFileSync(DEPLOYMENT_DOC, 'utf8');
    expect(doc).toContain(`\`\`\`nginx\n${SITE_CONF}\`\`\``);
    expect(doc).toContain(`\`\`\`nginx\n${readFileSync(PROXY_SNIPPET, 'utf8')}\`\`\``);
  });

  it('serves the console with its caching: the page revalidated (304), hashed assets immutable', async () => {
    const { proxy } = await behindNginx();
    const page = await call(`${proxy}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Console</title>');
    expect(page.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    const etag = String(page.headers.etag);
    const again = await call(`${proxy}/`, {
      headers: { accept: 'text/html', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const asset = await call(`${proxy}/assets/entry-abc123.js`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe(ASSET_CACHE_CONTROL);
    // The build's brotli copy, as the service sends it.
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers.vary).toMatch(/accept-encoding/i);
  });

  it('leaves compression to the service: its brotli passes, its small answers stay as they are', async () => {
    const { proxy } = await behindNginx();
    const large = await call(`${proxy}${API_BASE_PATH}/openapi.json`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(large.status).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    const small = await call(`${proxy}${API_BASE_PATH}/health`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('passes a publish to a stream subscriber at once: nothing buffered on the way', async () => {
    const { running, proxy, key } = await behindNginx();
    const stream = await openSse(`${proxy}${API_BASE_PATH}/delivery/${key}/stream?app=checkout`);
    streams.push(stream);
    expect(stream.status).toBe(200);
    expect((await stream.next()).event).toBe('app');
    const published = await publish(running, 'dark');
    // A buffering proxy would hold the event until its buffer fills: never, for one event.
    const event = await stream.next(2_000);
    expect(event.id).toBe(`${published}:1`);
    expect(deliveryViewSchema.parse(JSON.parse(event.data)).app.settings.theme).toBe('dark');
  });

  it('gives each client address its own delivery limit, from what nginx forwards', async () => {
    const { viewUrl } = await behindNginx({ deliveryRateLimit: { rps: 0.01, burst: 2 } });
    for (let n = 0; n < 2; n++)
      expect((await call(viewUrl, { from: '127.0.0.2' })).status).toBe(200);
    const refused = await call(viewUrl, { from: '127.0.0.2' });
    expect(refused.status).toBe(429);
    expect(problemSchema.parse(JSON.parse(refused.body)).code).toBe('rate_limited');
    // Another client has its budget whole, and cannot pass for a third by claiming to be one.
    const claimed = { 'x-forwarded-for': '127.0.0.9' };
    for (let n = 0; n < 2; n++)
      expect((await call(viewUrl, { from: '127.0.0.3', headers: claimed })).status).toBe(200);
    expect((await call(viewUrl, { from: '127.0.0.3', headers: claimed })).status).toBe(429);
  });

  it('passes 304s for the delivery views, with their ETag and CORS', async () => {
    const { viewUrl } = await behindNginx();
    const first = await call(viewUrl);
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    const again = await call(viewUrl, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['access-control-allow-origin']).toBe('*');
  });

  it('refuses a body over the service’s limit with the service’s problem, and redirects plain HTTP to https', async () => {
    const { running, proxy, redirect } = await behindNginx();
    const tooLarge = await call(`${proxy}${API_BASE_PATH}/config/edit`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${running.adminKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ summary: 'x'.repeat(1_200_000) }),
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(problemSchema.parse(JSON.parse(tooLarge.body)).code).toBe('payload_too_large');
    // A body of the service's limit itself passes to the service.
    const atLimit = await call(`${proxy}${API_BASE_PATH}/config/edit`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${running.adminKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ summary: 'x'.repeat(MAX_BODY_BYTES - 20) }).padEnd(MAX_BODY_BYTES),
    });
    expect(atLimit.status).toBe(400);
    const plain = await call(`${redirect}/configs`, {
      headers: { host: 'provisioning.example.com' },
    });
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe('https://provisioning.example.com/configs');
  });
});

describe('a shared cache in front of delivery (DELIVERY_CDN_MAX_AGE)', () => {
  it('reaches polling clients within the max-age, with one origin request per max-age', async () => {
    const maxAge = 1;
    const log = logCollector();
    const running = await startTestService({
      initialYaml: SHOP_YAML,
      deliveryCdnMaxAgeSeconds: maxAge,
      deliveryReadLog: { mode: 'each', intervalMs: 60_000 },
      logger: { ...serviceLoggerOptions('info'), stream: log.stream },
    });
    service = running;
    const servicePort = await listen(running);
    const port = await freePort();
    // The stand-in CDN: one request to the origin per miss however many wait (lock), and
    // copies that expire refreshed in the background with If-None-Match.
    nginx = await startNginx(port, (dir) =>
      [
        `    proxy_cache_path ${dir}/cache levels=1:2 keys_zone=delivery:1m;`,
        `    upstream origin { server 127.0.0.1:${servicePort}; keepalive 8; }`,
        '    server {',
        `        listen 127.0.0.1:${port};`,
        '        location / {',
        '            proxy_pass http://origin;',
        '            proxy_http_version 1.1;',
        '            proxy_set_header Connection "";',
        '            proxy_cache delivery;',
        '            proxy_cache_lock on;',
        '            proxy_cache_revalidate on;',
        '            proxy_cache_use_stale updating;',
        '            proxy_cache_background_update on;',
        '        }',
        '    }',
      ].join('\n'),
    );
    const { key } = (await ok(running, running.adminKey, 'createClientKey', {
      payload: { name: 'Apps' },
    })) as { key: string };
    const viewPath = `${API_BASE_PATH}/delivery/${key}/apps/checkout`;
    const originReads = () =>
      log.entries().filter((entry) => entry.msg === 'request' && String(entry.url) === viewPath)
        .length;

    const clients = 20;
    const agent = new Agent({ keepAlive: true, maxSockets: clients });
    let polls = 0;
    let stop = false;
    // eslint-disable-next-line prefer-const -- assigned after the polls start, read in them
    let published: string | undefined;
    let seenAt: number | undefined;
    const started = performance.now();
    const poll = async () => {
      while (!stop) {
        const answer = await call(`${nginx?.url}${viewPath}`, { agent });
        expect(answer.status).toBe(200);
        polls += 1;
        const view = deliveryViewSchema.parse(JSON.parse(answer.body));
        if (published !== undefined && view.config.id === published) seenAt ??= performance.now();
      }
    };
    const polling = Array.from({ length: clients }, poll);
    // Polls through the cache for a while, then a publish, then until every copy is new.
    while (polls < clients * 20) await new Promise((resolve) => setTimeout(resolve, 10));
    const publishedAt = performance.now();
    published = await publish(running, 'dark');
    const deadline = publishedAt + (2 * maxAge + 2) * 1_000;
    while (seenAt === undefined && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    stop = true;
    await Promise.all(polling);
    const elapsedSeconds = (performance.now() - started) / 1_000;
    agent.destroy();

    // Within the max-age and the stale-while-revalidate window, plus the refresh itself.
    expect(seenAt, 'the publish never reached the clients through the cache').toBeDefined();
    // The first miss, then at most one refresh per max-age, however many clients poll.
    const reads = originReads();
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBeLessThanOrEqual(Math.ceil(elapsedSeconds / maxAge) + 1);
    expect(polls).toBeGreaterThan(reads * 10);
  });
});
