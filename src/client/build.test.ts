/**
 * The built client (scripts/build-client.mjs): one ES module that imports nothing, small,
 * with types that stand alone, and that works as built.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
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
    console.info(`${OUT}: ${size} bytes (ceiling ${CEILING_BYTES})`);
    expect(size).toBeLessThan(CEILING_BYTES);
  });

  it('works as built', async () => {
    const built = (await import(pathToFileURL(OUT).href)) as typeof Built;
    const client = built.createClient({ baseUrl: stub.baseUrl, clientKey: STUB_KEY, app: 'web' });
    try {
      expect((await client.ready()).config.revision).toBe(1);
      expect(client.variant('checkout', 'user-1')).toMatch(/^(control|one_page)$/);
    } finally {
      client.close();
    }
  });
});
