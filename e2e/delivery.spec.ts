/**
 * Delivery in the console (docs/console.md, "Delivery"): a client key created on the
 * Delivery page with its snippet, used by an app, then revoked; and "What does a unit get?"
 * on an A/B test page, which must give what the delivery endpoints give. They run on the
 * Umbrella account (as the A/B test journeys do), with ids of their own.
 */
import type { Locator, Page } from '@playwright/test';
import { variantOf } from '../src/contract/assignment';
import { ConfigApi, uniqueSuffix } from './editor';
import { connectAs, expect, expectNoAxeViolations, saveScreenshot, test } from './fixtures';
import type { Seed, SeedKey } from './seed';

const CHECKOUT = {
  id: 'checkout',
  name: 'Checkout',
  platform: 'web',
  settings: { button_size: 'small', theme: 'light' },
};
const IOS = { id: 'ios-app', name: 'Shop for iOS', platform: 'ios' };
const CLIENT_KEY = /^ck_[0-9A-Za-z]{24}$/;

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** The account's live config holds the apps (made once per run, as the A/B journeys do). */
async function ensureApps(seed: Seed): Promise<void> {
  const api = ConfigApi.of(seed, seed.keys.abAdmin);
  if ((await api.live()).yaml.includes('id: checkout')) return;
  const draft = await api.createDraft('Checkout and iOS', [CHECKOUT, IOS]);
  await api.publish(draft.id, 'Checkout and iOS');
}

/** A running 50/50 test on checkout, live: created in a draft, and started (which publishes it). */
async function startTest(seed: Seed, testId: string) {
  const api = ConfigApi.of(seed, seed.keys.abAdmin);
  const variants = [
    { id: 'control', weight: 50 },
    { id: 'big', weight: 50, settings: { button_size: 'large' } },
  ];
  const draft = await api.edit({
    operations: [{ create_ab_test: [{ id: testId, app: 'checkout', variants }] }],
    summary: `Add ${testId}`,
  });
  await api.edit({ config_id: draft.id, operations: [{ start_ab_test: [{ id: testId }] }] });
  return { id: testId, status: 'running', variants };
}

async function api(seed: Seed, key: SeedKey, method: string, path: string, body?: unknown) {
  return fetch(`${seed.baseURL}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key.secret}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** What an app with this client key reads: GET /delivery/{key}/... (no API key). */
function delivery(seed: Seed, path: string): Promise<Response> {
  return fetch(`${seed.baseURL}/api/v1/delivery/${path}`);
}

function h1(page: Page): Locator {
  return page.getByRole('heading', { level: 1 });
}

function keysTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Client keys' });
}

function keyRow(page: Page, name: string): Locator {
  return keysTable(page).getByRole('row').filter({ hasText: name });
}

async function openDelivery(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Delivery' })
    .click();
  await expect(h1(page)).toHaveText('Delivery');
  await expect(page).toHaveTitle(/^Delivery · /);
}

test.beforeEach(async ({ seed }) => {
  await ensureApps(seed);
});

test('create a client key with its snippet, an app reads with it, revoke it', async ({
  page,
  seed,
}) => {
  const name = `Checkout web ${uniqueSuffix()}`;
  await connectAs(page, seed.keys.abAdmin);
  await openDelivery(page);

  // Create: a name, scoped to the checkout app.
  const form = page.getByRole('form', { name: 'Create a client key' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form
    .getByRole('group', { name: 'Apps' })
    .getByRole('checkbox', { name: /^Checkout/ })
    .check();
  await form.getByRole('button', { name: 'Create client key' }).click();

  const keyBox = page.getByRole('textbox', { name: 'New client key' });
  await expect(keyBox).toHaveValue(CLIENT_KEY);
  const key = await keyBox.inputValue();

  // The snippet holds the key, this server's API and the app; Copy puts it on the clipboard.
  const snippet = page.getByLabel(`Snippet for ${name}`).first();
  await expect(snippet).toContainText(`clientKey: '${key}'`);
  await expect(snippet).toContainText(`baseUrl: '${seed.baseURL}/api/v1'`);
  await expect(snippet).toContainText(`app: 'checkout'`);
  await expect(snippet).toContainText('await client.ready();');
  await page
    .getByRole('button', { name: `Copy the snippet for ${name}` })
    .first()
    .click();
  await expect(page.getByText('Snippet copied to the clipboard.')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await snippet.innerText());

  // The list: the whole key (not a secret), its app, active.
  const row = keyRow(page, name);
  await expect(row).toContainText(key);
  await expect(row).toContainText('checkout');
  await expect(row).toContainText('Active');

  // An app reads its view with it, and only within its scope.
  expect((await delivery(seed, `${key}/apps/checkout`)).status).toBe(200);
  expect((await delivery(seed, `${key}/apps/ios-app`)).status).toBe(404);

  // Revoke, after a confirmation: the row says so, and the app's reads fail.
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke ${name}?` });
  await expect(dialog).toContainText(key);
  await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: `Revoke ${name}` })).toHaveCount(0);
  expect((await delivery(seed, `${key}/apps/checkout`)).status).toBe(404);
});

test('"What does a unit get?" on an A/B test page gives what the delivery endpoints give', async ({
  page,
  seed,
}) => {
  const running = await startTest(seed, `unit-box-${uniqueSuffix()}`);
  const created = await api(seed, seed.keys.abAdmin, 'POST', '/client-keys', {
    name: `Unit box ${running.id}`,
  });
  expect(created.status).toBe(201);
  const { key } = (await created.json()) as { key: string };

  await connectAs(page, seed.keys.abAdmin);
  await page.goto(`/ab-tests/live/${running.id}`);
  await expect(h1(page)).toHaveText(`A/B test ${running.id}`);
  const box = page.getByRole('region', { name: 'What does a unit get?' });

  for (const unit of ['user-1', 'user-2', 'ünït 3']) {
    await box.getByLabel('Unit id').fill(unit);
    await box.getByRole('button', { name: 'Show' }).click();
    const expected = variantOf(running, unit)?.id;
    expect(expected).toBeDefined();
    await expect(
      box.getByText(`In ${running.id}, ${unit} gets the variant ${expected}.`),
    ).toBeVisible();

    // The server, asked with a client key, agrees: same variants, same settings.
    const answer = await delivery(
      seed,
      `${key}/apps/checkout/assignment?unit=${encodeURIComponent(unit)}`,
    );
    expect(answer.status).toBe(200);
    const served = (await answer.json()) as {
      settings: Record<string, unknown>;
      tests: { id: string; variant: string }[];
    };
    expect(served.tests).toContainEqual({ id: running.id, variant: expected });
    const variants = box.getByRole('table', { name: `Variants of ${unit}` });
    for (const test of served.tests) {
      await expect(variants.getByRole('row', { name: new RegExp(`^${test.id} `) })).toContainText(
        test.variant,
      );
    }
    const settings = box.getByRole('table', { name: `Settings of ${unit}` });
    for (const [setting, value] of Object.entries(served.settings)) {
      await expect(settings.getByRole('row', { name: new RegExp(`^${setting} `) })).toContainText(
        JSON.stringify(value),
      );
    }
  }

  // An empty or too long id is refused beside the field.
  await box.getByLabel('Unit id').fill('');
  await box.getByRole('button', { name: 'Show' }).click();
  await expect(box.getByText('Enter a unit id.')).toBeVisible();
  await box.getByLabel('Unit id').fill('u'.repeat(201));
  await box.getByRole('button', { name: 'Show' }).click();
  await expect(box.getByText('Use at most 200 characters.')).toBeVisible();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the Delivery page and the unit box have no axe violations (${colorScheme})`, async ({
    page,
    seed,
  }) => {
    const running = await startTest(seed, `axe-unit-${colorScheme}-${uniqueSuffix()}`);
    await page.emulateMedia({ colorScheme });
    await connectAs(page, seed.keys.abAdmin);
    await openDelivery(page);

    const name = `Axe ${colorScheme} ${uniqueSuffix()}`;
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Create client key' }).click();
    await expect(page.getByRole('textbox', { name: 'New client key' })).toHaveValue(CLIENT_KEY);
    const apps = page.getByRole('region', { name: 'Apps' });
    await apps.getByText(/^Checkout /).click();
    const box = apps.getByRole('region', { name: 'What does a unit of Checkout get?' });
    await box.getByLabel('Unit id').fill('user-1');
    await box.getByRole('button', { name: 'Show' }).click();
    await expect(box.getByRole('table', { name: 'Settings of user-1' })).toBeVisible();
    await expectNoAxeViolations(page);
    await saveScreenshot(page, `delivery-${colorScheme}`);

    await page.goto(`/ab-tests/live/${running.id}`);
    const testBox = page.getByRole('region', { name: 'What does a unit get?' });
    await testBox.getByLabel('Unit id').fill('user-1');
    await testBox.getByRole('button', { name: 'Show' }).click();
    await expect(testBox.getByText(/gets the variant/)).toBeVisible();
    await expectNoAxeViolations(page);
    await saveScreenshot(page, `ab-test-unit-box-${colorScheme}`);
  });
}
