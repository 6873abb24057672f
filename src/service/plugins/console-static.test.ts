/**
 * The built console as the service serves it: its files, the SPA fallback, and its source
 * maps, which are not served unless asked for; its assets compressed by the build and
 * cached for a year, its pages revalidated.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

const SOURCE_MAP = JSON.stringify({ version: 3, sources: ['../src/console/secret-plan.ts'] });
/** An asset large enough to be worth compressing. */
const BIG_SCRIPT = `export const plan = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `app-${i}`))};\n`;

let consoleDir: string;
let service: TestService | undefined;

beforeAll(() => {
  consoleDir = mkdtempSync(join(tmpdir(), 'console-'));
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Console</title>');
  mkdirSync(join(consoleDir, 'assets'));
  writeFileSync(
    join(consoleDir, 'assets', 'entry-abc123.js'),
    'export {};\n//# sourceMappingURL=entry-abc123.js.map\n',
  );
  writeFileSync(join(consoleDir, 'assets', 'entry-abc123.js.map'), SOURCE_MAP);
  writeFileSync(join(consoleDir, 'assets', 'editor-def456.js'), BIG_SCRIPT);
  writeFileSync(join(consoleDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // The build's own step, as `npm run build` runs it.
  execFileSync(process.execPath, ['scripts/precompress.mjs', join(consoleDir, 'assets')]);
});

afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

afterEach(async () => {
  await service?.close();
  service = undefined;
});

const get = (url: string, accept = '*/*') =>
  (service as TestService).call(undefined, { method: 'GET', url, headers: { accept } });

describe('the console', () => {
  it('serves its files and answers its pages with index.html', async () => {
    service = await startTestService({ consoleDir });
    const script = await get('/assets/entry-abc123.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    const page = await get('/configs/abc', 'text/html');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Console</title>');
  });

  it('answers GET / to a client taking gzip and anything (curl --compressed)', async () => {
    service = await startTestService({ consoleDir });
    const answer = await (service as TestService).call(undefined, {
      method: 'GET',
      url: '/',
      headers: { accept: '*/*', 'accept-encoding': 'gzip' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('<title>Console</title>');
  });

  it('sends index.html precompressed when the build left a compressed copy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-'));
    try {
      const html = `<!doctype html><title>Console</title>${'<!-- padding -->'.repeat(100)}`;
      writeFileSync(join(dir, 'index.html'), html);
      writeFileSync(join(dir, 'index.html.gz'), gzipSync(html));
      service = await startTestService({ consoleDir: dir });
      const answer = await (service as TestService).call(undefined, {
        method: 'GET',
        url: '/',
        headers: { accept: '*/*', 'accept-encoding': 'gzip' },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(answer.rawPayload).toString('utf8')).toBe(html);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not serve source maps: a 404 problem, like any missing file', async () => {
    service = await startTestService({ consoleDir });
    const map = await get('/assets/entry-abc123.js.map');
    expectProblem(map, 404, 'not_found');
    expectProblem(await get('/assets/missing.js'), 404, 'not_found');
    // Nor to a browser's navigation, which gets the console's page instead.
    expect((await get('/assets/entry-abc123.js.map', 'text/html')).body).not.toContain(
      'secret-plan',
    );
  });

  it('serves them with SERVE_SOURCE_MAPS=1', async () => {
    service = await startTestService({ consoleDir, serveSourceMaps: true });
    const map = await get('/assets/entry-abc123.js.map');
    expect(map.statusCode).toBe(200);
    expect(map.body).toBe(SOURCE_MAP);
  });
});

describe('compression and caching of the console', () => {
  const fetchAsset = (encoding: string | undefined) =>
    (service as TestService).call(undefined, {
      method: 'GET',
      url: '/assets/editor-def456.js',
      headers: encoding === undefined ? {} : { 'accept-encoding': encoding },
    });

  it('has the build write brotli and gzip copies of assets worth compressing, only', () => {
    const assets = join(consoleDir, 'assets');
    expect(brotliDecompressSync(readFileSync(join(assets, 'editor-def456.js.br'))).toString()).toBe(
      BIG_SCRIPT,
    );
    expect(gunzipSync(readFileSync(join(assets, 'editor-def456.js.gz'))).toString()).toBe(
      BIG_SCRIPT,
    );
    // Under 1 KiB, and source maps (never sent to browsers by default): no copies.
    expect(existsSync(join(assets, 'entry-abc123.js.br'))).toBe(false);
    expect(existsSync(join(assets, 'entry-abc123.js.map.gz'))).toBe(false);
  });

  it('sends an asset compressed as the client accepts, cached for a year', async () => {
    service = await startTestService({ consoleDir });
    for (const [accepted, sent] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const answer = await fetchAsset(accepted);
      expect(answer.statusCode, accepted).toBe(200);
      expect(answer.headers['content-encoding'], accepted).toBe(sent);
      expect(answer.headers['content-type'], accepted).toContain('javascript');
      expect(answer.headers.vary, accepted).toContain('accept-encoding');
      expect(answer.headers['cache-control'], accepted).toBe('public, max-age=31536000, immutable');
      const body = answer.rawPayload;
      const text =
        sent === 'br'
          ? brotliDecompressSync(body).toString()
          : sent === 'gzip'
            ? gunzipSync(body).toString()
            : body.toString();
      expect(text, accepted).toBe(BIG_SCRIPT);
    }
    // A small asset has no copies and goes as it is, still immutable.
    const small = await get('/assets/entry-abc123.js');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('does not serve the compressed copies under their own names', async () => {
    service = await startTestService({ consoleDir });
    expectProblem(await get('/assets/editor-def456.js.br'), 404, 'not_found');
    expectProblem(await get('/assets/editor-def456.js.gz'), 404, 'not_found');
  });

  it('has pages and unhashed files revalidated: no-cache, and a 304 when unchanged', async () => {
    service = await startTestService({ consoleDir });
    for (const [url, accept] of [
      ['/', 'text/html'],
      ['/index.html', 'text/html'],
      ['/configs/abc', 'text/html'],
      ['/favicon.svg', 'image/*'],
    ] as const) {
      const first = await get(url, accept);
      expect(first.statusCode, url).toBe(200);
      expect(first.headers['cache-control'], url).toBe('no-cache');
      const etag = first.headers.etag;
      expect(etag, url).toBeTruthy();
      const again = await (service as TestService).call(undefined, {
        method: 'GET',
        url,
        headers: { accept, 'if-none-match': String(etag) },
      });
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe('');
    }
  });
});
