/**
 * The built console as the service serves it: its files, the SPA fallback, and its source
 * maps, which are not served unless asked for.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

const SOURCE_MAP = JSON.stringify({ version: 3, sources: ['../src/console/secret-plan.ts'] });

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
