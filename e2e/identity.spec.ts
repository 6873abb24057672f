/**
 * The whoami panel (docs/console.md, "Whoami panel"): who signed in (here with a key, which
 * the console exchanged for a session), what they may do, and when the session ends. A key's
 * own expiry and its warnings show for a key used without a session (another server); the
 * component tests cover them.
 */
import type { Page } from '@playwright/test';
import { connectAs, expect, test, whoAmI } from './fixtures';
import type { SeedKey } from './seed';

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

test('an admin sees every field of their key, and when the session ends', async ({
  page,
  seed,
}) => {
  const admin = seed.keys.admin;
  await connectAs(page, admin);
  await expectPanelShows(page, admin);
  await expect(whoAmI(page)).toContainText(
    `Signed in as ${String(admin.status?.email)} with an API key · session ends`,
  );
  await expect(page.getByText('This key expires in')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Stay signed in' })).toHaveCount(0);
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

test('a key of another account shows that account', async ({ page, seed }) => {
  const other = seed.keys.otherAccount;
  await connectAs(page, other);
  await expectPanelShows(page, other);
  await expect(whoAmI(page)).not.toContainText(seed.account.id);
});
