/**
 * The audit trail (docs/console.md, "/audit"): an admin makes a change and finds it, with
 * who made it, by filtering on the server; a viewer is not offered the page.
 */
import { connectAs, expect, expectNoAxeViolations, test } from './fixtures';

test('an admin finds the key they just made in the audit trail, filtered to API keys', async ({
  page,
  seed,
}) => {
  const { admin } = seed.keys;
  await connectAs(page, admin);
  const name = `Audited ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('textbox', { name: 'New API key' })).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Audit trail' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit trail' });
  await page.getByLabel('What').selectOption({ label: 'API keys' });
  const rows = table.getByRole('row').filter({ hasText: 'api_key.create' });
  await expect(rows.first()).toBeVisible();
  await expect(rows.first()).toContainText(String(admin.status?.email));
  // Only API key records remain.
  await expect(table.getByRole('row').filter({ hasText: 'config.' })).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(admin.secret);
  await expectNoAxeViolations(page);
});

test('a viewer is not offered the audit trail', async ({ page, seed }) => {
  await connectAs(page, seed.keys.viewer);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Configs' }),
  ).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit trail' }),
  ).toHaveCount(0);
});
