/**
 * An app that reads its config with the client library (src/client) while a person
 * publishes in the console: the real service, a client key made through the API, the
 * library subscribed from this test's process as an app's would be, and a person who opens
 * a draft and publishes it. The app must see the new settings without asking again.
 */
import { createClient } from '../src/client/provisioning-client';
import { ConfigApi, uniqueSuffix } from './editor';
import { connectAs, expect, test } from './fixtures';
import type { Seed, SeedKey } from './seed';

interface CreatedClientKey {
  key: string;
}

async function createClientKey(seed: Seed, key: SeedKey, apps: string[]): Promise<string> {
  const response = await fetch(`${seed.baseURL}/api/v1/client-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Kiosk app ${uniqueSuffix()}`, apps }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as CreatedClientKey).key;
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

  const client = createClient({
    baseUrl: seed.baseURL,
    clientKey: await createClientKey(seed, seed.keys.configsAdmin, [appId]),
    app: appId,
  });
  try {
    await client.ready();
    expect(client.settings('unit-1')).toEqual({ theme: 'light' });
    const themes: unknown[] = [];
    client.subscribe((view) => themes.push(view.app.settings.theme));

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

    // Told over the library's stream; how fast is measured by the stream bench, not here.
    await expect.poll(() => client.settings('unit-1').theme).toBe('dark');
    expect(themes).toContain('dark');
  } finally {
    client.close();
  }
});
