/**
 * The whoami panel (docs/console.md, "Whoami panel"): who the key belongs to, what it may do, and
 * when it expires, with a warning under 7 days and a clear state once expired.
 */
import type { Page } from '@playwright/test';
import { absoluteUtc, connectAs, expect, test, whoAmI } from './fixtures';
import type { SeedKey } from './seed';

const DAY_MS = 24 * 60 * 60 * 1000;

async function expectPanelShows(page: Page, key: SeedKey): Promise<void> {
  const status = key.status ?? {};
  const panel = whoAmI(page);
  await expect(panel).toContainText(String(status.email));
  await expect(panel.getByText(String(status.role), { exact: true })).toBeVisible();
  await expect(panel).toContainText(String(status.account_id));
  await expect(panel).toContainText(String(status.idp_organization_id));
  await expect(panel).toContainText(key.name);
  await expect(panel).toContainText(key.obfuscatedValue);
  for (const permission of key.permissions) await expect(panel).toContainText(permission);
  for (const nonsense of ['undefined', 'null', 'NaN', 'Invalid Date']) {
    await expect(panel).not.toContainText(nonsense);
  }
}

test('an admin sees every field of their key, that it never expires, and no expiry warning', async ({
  page,
  seed,
}) => {
  const admin = seed.keys.admin;
  expect(admin.expiresAt, 'the CLI made a key without an expiry').toBeNull();
  await connectAs(page, admin);
  await expectPanelShows(page, admin);
  await expect(whoAmI(page).getByText('Never expires', { exact: true })).toBeVisible();
  await expect(page.getByText('This key expires in')).toHaveCount(0);
  await expect(page.getByText('This key has expired.')).toHaveCount(0);
});

test('an editor sees their role and only their permissions', async ({ page, seed }) => {
  const editor = seed.keys.editor;
  await connectAs(page, editor);
  await expectPanelShows(page, editor);
  await expect(whoAmI(page)).not.toContainText('config:publish');
  await expect(whoAmI(page)).not.toContainText('api_keys:manage');
});

test('a viewer sees their role, and no key management', async ({ page, seed }) => {
  const viewer = seed.keys.viewer;
  await connectAs(page, viewer);
  await expectPanelShows(page, viewer);
  await expect(whoAmI(page)).not.toContainText('config:write');
  await expect(page.getByRole('heading', { name: 'Connection' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'API keys' })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'API keys' })).toHaveCount(0);
});

test('a key that expires in 3 days says so, relative and absolute, with a warning', async ({
  page,
  seed,
}) => {
  const expiring = seed.keys.expiring;
  const expiresAt = expiring.expiresAt;
  expect(expiresAt, 'the CLI gave the key an expiry').not.toBeNull();
  await connectAs(page, expiring);
  await expectPanelShows(page, expiring);
  const panel = whoAmI(page);
  await expect(panel).toContainText(/expires in 3 days/i);
  await expect(panel).toContainText(absoluteUtc(String(expiresAt)));
  await expect(page.getByText('This key expires in 3 days.')).toBeVisible();
  await expect(panel.getByText('Never expires')).toHaveCount(0);
});

test('the same key a week before its expiry shows no warning', async ({ page, seed }) => {
  const expiring = seed.keys.expiring;
  // The browser's clock (only) is set back: the key has 8 days and a minute left.
  await page.clock.setFixedTime(Date.parse(String(expiring.expiresAt)) - 8 * DAY_MS - 60_000);
  await connectAs(page, expiring);
  const panel = whoAmI(page);
  await expect(panel).toContainText(/expires in 8 days/i);
  await expect(panel).toContainText(absoluteUtc(String(expiring.expiresAt)));
  await expect(page.getByText('This key expires in')).toHaveCount(0);
});

test('once the expiry has passed, the panel says the key has expired', async ({ page, seed }) => {
  const expiring = seed.keys.expiring;
  // The browser's clock (only) is a day past the expiry; the server still accepts the key.
  await page.clock.setFixedTime(Date.parse(String(expiring.expiresAt)) + DAY_MS);
  await connectAs(page, expiring);
  await expect(page.getByText('This key has expired.')).toBeVisible();
  await expect(page.getByText('This key expires in')).toHaveCount(0);
});

test('a key of another account shows that account', async ({ page, seed }) => {
  const other = seed.keys.otherAccount;
  await connectAs(page, other);
  await expectPanelShows(page, other);
  await expect(whoAmI(page)).not.toContainText(seed.account.id);
});
