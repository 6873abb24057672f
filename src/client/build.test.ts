/**
 * The built client (scripts/build-client.mjs): one ES module that imports nothing, small,
 * with types that stand alone, and that works as built.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Built from './provisioning-client';
import {
  sampleView,
  startDeliveryStub,
  STUB_KEY,
  type DeliveryStub,
} from './testing/delivery-stub';

const OUT = 'build/client/provisioning-client.js';
const CEILING_BYTES = 12 * 1024;
const GZIP_CEILING_BYTES = 5 * 1024;

let stub: DeliveryStub;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-client.mjs'], { stdio: 'pipe' });
  stub = await startDeliveryStub(sampleView(1));
}, 60_000);
afterAll(() => stub.close());

describe('the built client', () => {
  it('is one ES module with its types, importing nothing, under its size ceiling', () => {
    expect(readdirSync('build/client').sort()).toEqual([
      'provisioning-client.d.ts',
      'provisioning-client.js',
    ]);
    const code = readFileSync(OUT, 'utf8');
    expect(code).not.toMatch(/\bimport\s*[\s{*("'`]|\bimport\.meta\b|\brequire\s*\(/);
    expect(code).not.toMatch(/\bzod\b|node:/);
    expect(code).toMatch(/export\s*\{[^}]*\bcreateClient\b/);
    const types = readFileSync('build/client/provisioning-client.d.ts', 'utf8');
    expect(types).not.toMatch(/^\s*import\b|\bfrom\s+['"]/m);
    expect(types).toContain(
      'export declare function createClient(options: ClientOptions): ProvisioningClient;',
    );
    const size = statSync(OUT).size;
    const gzipped = gzipSync(readFileSync(OUT), { level: 9 }).length;
    console.info(
      `${OUT}: ${size} bytes, ${gzipped} gzipped (ceilings ${CEILING_BYTES}, ${GZIP_CEILING_BYTES})`,
    );
    expect(size).toBeLessThan(CEILING_BYTES);
    expect(gzipped).toBeLessThan(GZIP_CEILING_BYTES);
  });

  it('has types an app can compile against with the browser library alone', () => {
    const app = mkdtempSync(join(tmpdir(), 'client-types-'));
    try {
      for (const file of ['provisioning-client.js', 'provisioning-client.d.ts']) {
        copyFileSync(`build/client/${file}`, join(app, file));
      }
      writeFileSync(join(app, 'package.json'), '{"type": "module"}');
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'es2022',
            module: 'nodenext',
            lib: ['es2022', 'dom'],
            types: [],
          },
          files: ['app.ts'],
        }),
      );
      writeFileSync(
        join(app, 'app.ts'),
        [
          "import { createClient, ClientError, type DeliveryView, type EventStats, type Exposure } from './provisioning-client.js';",
          "const client = createClient({ baseUrl: 'https://x', clientKey: 'ck_x', app: 'web',",
          '  onError: (error: ClientError) => console.log(error.kind, error.status),',
          '  trackExposures: false, onExposure: (exposure: Exposure) => console.log(exposure.variant) });',
          'const view: DeliveryView = await client.ready({ timeoutMs: 10 });',
          "const variant: string | undefined = client.variant('t', 'u');",
          "const settings: Record<string, string | number | boolean> = client.settings('u');",
          'client.subscribe((next) => console.log(next.config.revision, view, variant, settings))();',
          "client.track('purchase', 'u', 9.5);",
          'await client.flush();',
          'const stats: EventStats = client.eventStats();',
          'console.log(stats.queued, stats.sent, stats.dropped, stats.rejected);',
          'await client.close();',
        ].join('\n'),
      );
      const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
      execFileSync(process.execPath, [tsc, '-p', join(app, 'tsconfig.json')], { stdio: 'pipe' });
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  }, 60_000);

  it('works as built', async () => {
    const built = (await import(pathToFileURL(OUT).href)) as typeof Built;
    const client = built.createClient({ baseUrl: stub.baseUrl, clientKey: STUB_KEY, app: 'web' });
    try {
      expect((await client.ready()).config.revision).toBe(1);
      expect(client.variant('checkout', 'user-1')).toMatch(/^(control|one_page)$/);
      client.track('purchase', 'user-1', 3);
      await client.flush();
      expect(client.eventStats()).toEqual({ queued: 0, sent: 2, dropped: 0, rejected: 0 });
      expect(stub.eventBatches).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
