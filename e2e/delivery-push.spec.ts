/**
 * An app that reads its config with the client library (src/client) while a person
 * publishes in the console: the real service and the built library. The app is a web page
 * of another origin (a server of the test's own on another loopback port, so the app crosses
 * CORS as a real one would) that shows its theme; a person opens a draft in the console and
 * publishes it, and the app's page shows the new theme without a reload.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigApi, uniqueSuffix } from './editor';
import { connectAs, expect, test } from './fixtures';
import type { Seed, SeedKey } from './seed';

/** What `npm run build` (run before the server starts) writes. */
const BUILT_CLIENT = 'build/client/provisioning-client.js';

async function createClientKey(seed: Seed, key: SeedKey, apps: string[]): Promise<string> {
  const response = await fetch(`${seed.baseURL}/api/v1/client-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Kiosk app ${uniqueSuffix()}`, apps }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

/**
 * The kiosk app, served from 127.0.0.1 on a port of its own: a page whose module script
 * reads its app's view with the library and shows the theme one visitor gets.
 */
async function serveKioskApp(seed: Seed, clientKey: string, appId: string): Promise<Server> {
  const options = JSON.stringify({ baseUrl: seed.baseURL, clientKey, app: appId });
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Kiosk</title></head>
<body><main><h1>Kiosk</h1><p id="theme">Loading…</p></main>
<script type="module">
  import { createClient } from './provisioning-client.js';
  const client = createClient(${options});
  const show = () => {
    document.getElementById('theme').textContent = 'Theme: ' + client.settings('visitor-1').theme;
  };
  await client.ready();
  show();
  client.subscribe(show);
</script></body></html>`;
  const library = readFileSync(BUILT_CLIENT, 'utf8');
  const server = createServer((request, response) => {
    const isLibrary = request.url === '/provisioning-client.js';
    response.writeHead(request.url === '/' || isLibrary ? 200 : 404, {
      'content-type': isLibrary ? 'text/javascript' : 'text/html; charset=utf-8',
    });
    response.end(isLibrary ? library : request.url === '/' ? html : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

test('a subscribed app sees the settings a person publishes in the console', async ({
  page,
  seed,
}) => {
  const suffix = uniqueSuffix();
  const appId = `kiosk-${suffix}`;
  const api = ConfigApi.of(seed);
  const first = await api.createDraft(`Kiosk ${suffix}`, [
    { id: appId, name: 'Kiosk', platform: 'web', settings: { theme: 'light' } },
  ]);
  await api.publish(first.id, `Kiosk ${suffix}`);

  const clientKey = await createClientKey(seed, seed.keys.configsAdmin, [appId]);
  const kiosk = await serveKioskApp(seed, clientKey, appId);
  try {
    const app = await page.context().newPage();
    let appLoads = 0;
    app.on('load', () => (appLoads += 1));
    await app.goto(`http://127.0.0.1:${(kiosk.address() as AddressInfo).port}/`);
    await expect(app.getByText('Theme: light')).toBeVisible();

    // Someone prepares a dark kiosk in a draft; a person publishes it from its page.
    const draftLabel = `Dark kiosk ${suffix}`;
    const draft = await api.edit({
      summary: draftLabel,
      operations: [{ update_app: [{ id: appId, settings: { theme: 'dark' } }] }],
    });
    await connectAs(page, seed.keys.configsAdmin);
    await page.goto(`/configs/${draft.id}`);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Publish ${draftLabel}?` });
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByText('Published. This version is now live.')).toBeVisible();

    // Told over the library's stream: the app's page was not reloaded.
    await expect(app.getByText('Theme: dark')).toBeVisible();
    expect(appLoads).toBe(1);
  } finally {
    kiosk.closeAllConnections();
    kiosk.close();
  }
});
