/**
 * Key management on the settings page (docs/console.md, "/settings"): the account's keys, a
 * new key whose secret is shown once and works elsewhere, revocation with a confirmation, and
 * revoking the key in use.
 */
import type { Page } from '@playwright/test';
import {
  connect,
  connectAs,
  createKeyWithCli,
  expect,
  expectSentToSignIn,
  storedValues,
  test,
  whoAmI,
} from './fixtures';

const COLUMNS = ['Name', 'Key', 'Permissions', 'Created', 'Last used', 'Expires', 'Status'];
const ALL_PERMISSIONS = [
  'config:read',
  'config:write',
  'config:publish',
  'api_keys:manage',
  'audit:read',
];

function keysTable(page: Page) {
  return page.getByRole('table', { name: 'API keys' });
}

function keyRow(page: Page, name: string) {
  return keysTable(page).getByRole('row').filter({ hasText: name });
}

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test("an admin sees the account's keys, never a secret, and no other account's", async ({
  page,
  seed,
}) => {
  const { admin, editor, otherAccount } = seed.keys;
  await connectAs(page, admin);
  await expect(page.getByRole('heading', { level: 2, name: 'API keys' })).toBeVisible();
  const table = keysTable(page);
  await expect(table).toBeVisible();
  for (const column of COLUMNS) {
    await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  }
  await expect(keyRow(page, admin.name)).toContainText(admin.obfuscatedValue);
  await expect(keyRow(page, editor.name)).toContainText(editor.obfuscatedValue);
  await expect(keyRow(page, editor.name)).toContainText('config:write');
  await expect(keyRow(page, seed.keys.revoked.name)).toContainText(/revoked/i);
  await expect(page.getByRole('button', { name: `Revoke ${seed.keys.revoked.name}` })).toHaveCount(
    0,
  );
  await expect(table).not.toContainText(otherAccount.name);
  for (const key of [admin, editor, seed.keys.viewer]) {
    await expect(page.locator('body')).not.toContainText(key.secret);
  }
});

test('create a key, use its secret in another browser, revoke it, and that browser is asked to sign in again', async ({
  page,
  seed,
  newContext,
  consoleErrors,
}) => {
  const name = `Deploy bot ${Date.now().toString(36)}`;
  await connectAs(page, seed.keys.admin);

  // Create: a name, only config:read, 30 days.
  await expect(page.getByRole('heading', { level: 3, name: 'Create a key' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(name);
  for (const permission of ALL_PERMISSIONS) {
    await page
      .getByRole('checkbox', { name: permission, exact: true })
      .setChecked(permission === 'config:read');
  }
  await page.getByLabel('Expires in days').fill('30');
  await page.getByRole('button', { name: 'Create key' }).click();

  // The secret, once, with a copy button and a plain warning.
  const secretBox = page.getByRole('textbox', { name: 'New API key' });
  await expect(secretBox).toHaveValue(/^sk_[0-9A-Za-z]{40}$/);
  await expect(secretBox).not.toBeEditable();
  await expect(page.getByText('Copy this key now: it will not be shown again.')).toBeVisible();
  const secret = await secretBox.inputValue();
  await page.getByRole('button', { name: 'Copy key' }).click();
  await expect
    .poll(() => page.evaluate(() => navigator.clipboard.readText()), { message: 'clipboard' })
    .toBe(secret);
  await expect(keyRow(page, name)).toContainText('config:read');
  await expect(keyRow(page, name)).not.toContainText('config:write');
  await expect(keysTable(page)).not.toContainText(secret);

  // Another browser (another person) connects with it and is exactly that key.
  const elsewhere = await (await newContext()).newPage();
  await connect(elsewhere, secret);
  const panel = whoAmI(elsewhere);
  await expect(panel).toContainText(name);
  await expect(panel).toContainText(String(seed.keys.admin.status?.email));
  await expect(panel).toContainText('config:read');
  await expect(panel).not.toContainText('config:write');
  // Exchanged for a session: the panel says so, and when that session ends.
  await expect(panel).toContainText('with an API key · session ends');
  await expect(elsewhere.getByRole('table', { name: 'API keys' })).toHaveCount(0);
  await elsewhere
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Configs' })
    .click();
  await expect(elsewhere).toHaveURL((url) => url.pathname === '/configs');
  await expect(whoAmI(elsewhere)).toContainText(name);

  // Revoke asks first; Cancel keeps the key.
  await page.getByRole('button', { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke ${name}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(keyRow(page, name)).not.toContainText(/revoked/i);

  await page.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(keyRow(page, name)).toContainText(/revoked/i);
  await expect(page.getByRole('button', { name: `Revoke ${name}` })).toHaveCount(0);
  await expect(whoAmI(page)).toContainText(seed.keys.admin.name);

  // The other browser's session came from that key: its next request gets a 401, and it is
  // asked to sign in again where it is.
  consoleErrors.allowFailedRequest(401, '/api/v1/');
  await elsewhere
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'A/B tests' })
    .click();
  const again = elsewhere.getByRole('dialog', { name: 'Your session ended — sign in again' });
  await expect(again).toBeVisible();
  await expect(again).toContainText('Your session was ended.');
  const stored = await storedValues(elsewhere);
  expect([...stored.local, ...stored.session].join('\n')).not.toContain(secret);
  // Reloaded, the ended session says so on the sign-in page.
  await elsewhere.reload();
  await expectSentToSignIn(elsewhere, 'Your session was ended. Sign in again.');
});

test('revoking the key in use signs out', async ({ page, seed }) => {
  // A key of its own (the admin's), so that the test can be repeated.
  const inUse = createKeyWithCli(seed.keys.admin.userId, `Ada laptop ${Date.now().toString(36)}`);
  await connect(page, inUse.secret);
  await expect(whoAmI(page)).toContainText(inUse.name);
  await expect(keyRow(page, inUse.name)).toBeVisible();

  await page.getByRole('button', { name: `Revoke ${inUse.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke ${inUse.name}?` });
  await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();

  await expectSentToSignIn(page, 'You revoked the API key you were using. Sign in again.');
  await expect(page.getByRole('table', { name: 'API keys' })).toHaveCount(0);
  const stored = await storedValues(page);
  expect([...stored.local, ...stored.session].join('\n')).not.toContain(inUse.secret);

  // Its session went with it.
  await page.goto('/configs');
  await expectSentToSignIn(page, 'Your session was ended. Sign in again.');
});
