/**
 * Connecting with an API key (docs/console.md, "/settings"): a good key, bad ones,
 * remembered or not, and signing out.
 */
import {
  apiKeyField,
  connect,
  connectAs,
  expect,
  expectSentToSettings,
  mistyped,
  storedValues,
  test,
  whoAmI,
} from './fixtures';

const NOT_CONNECTED = 'Connect with an API key to continue.';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('the console names the product and, without a key, asks for one', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Provisioning Console/);
  await expect(page.getByRole('banner')).toContainText('Provisioning Console');
  await expectSentToSettings(page, NOT_CONNECTED);

  await page.goto('/ab-tests');
  await expectSentToSettings(page, NOT_CONNECTED);
});

test('connect with a good key and see who you are', async ({ page, seed }) => {
  const admin = seed.keys.admin;
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Connection' })).toBeVisible();
  await expect(page.getByLabel('API base URL')).toHaveValue(
    new RegExp(`^(${escapeRegExp(seed.baseURL)})?/api/v1$`),
  );
  await expect(page.getByLabel('Remember on this device')).not.toBeChecked();

  // The key is a password field that can be shown and hidden again.
  const keyField = apiKeyField(page);
  await expect(keyField).toHaveAttribute('type', 'password');
  await keyField.fill(admin.secret);
  await page.getByRole('button', { name: 'Show key' }).click();
  await expect(keyField).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide key' }).click();
  await expect(keyField).toHaveAttribute('type', 'password');

  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText(`Connected as ${String(admin.status?.email)}`)).toBeVisible();
  await expect(whoAmI(page)).toContainText(String(admin.status?.email));
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(page.url()).not.toContain(admin.secret);

  // The panel is there on every page while connected.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Configs' })
    .click();
  await expect(page).toHaveURL((url) => url.pathname === '/configs');
  await expect(whoAmI(page)).toContainText(String(admin.status?.email));
});

test('connect from the keyboard alone', async ({ page, seed }) => {
  await page.goto('/settings');
  await apiKeyField(page).focus();
  await page.keyboard.type(seed.keys.editor.secret);
  await page.keyboard.press('Enter');
  await expect(whoAmI(page)).toContainText(String(seed.keys.editor.status?.email));
});

test('a mistyped key fails in words, and nothing is stored', async ({
  page,
  seed,
  consoleErrors,
}) => {
  consoleErrors.allowFailedRequest(401, '/api/v1/auth/status');
  const typo = mistyped(seed.keys.admin.secret);

  await connect(page, typo, { remember: true });
  await expect(
    page.getByRole('alert').filter({ hasText: 'That API key is not valid.' }),
  ).toBeVisible();
  await expect(whoAmI(page)).toHaveCount(0);
  const stored = await storedValues(page);
  expect([...stored.local, ...stored.session].join('\n')).not.toContain(typo);

  await page.reload();
  await page.goto('/configs');
  await expectSentToSettings(page, NOT_CONNECTED);
});

test('a revoked key fails in words, and nothing is stored', async ({
  page,
  seed,
  consoleErrors,
}) => {
  consoleErrors.allowFailedRequest(401, '/api/v1/auth/status');
  const revoked = seed.keys.revoked;

  await connect(page, revoked.secret);
  await expect(
    page.getByRole('alert').filter({ hasText: 'That API key was revoked.' }),
  ).toBeVisible();
  await expect(whoAmI(page)).toHaveCount(0);
  const stored = await storedValues(page);
  expect([...stored.local, ...stored.session].join('\n')).not.toContain(revoked.secret);

  await page.reload();
  await page.goto('/configs');
  await expectSentToSettings(page, NOT_CONNECTED);
});

test('an unreachable server is named in the form', async ({ page, seed, consoleErrors }) => {
  // Nothing listens on port 9 (discard); the page's CSP may refuse the origin before that.
  const unreachable = 'http://127.0.0.1:9/api/v1';
  consoleErrors.allow(
    /ERR_CONNECTION_REFUSED|Refused to connect|violates the following Content Security Policy/,
  );

  await page.goto('/settings');
  await page.getByLabel('API base URL').fill(unreachable);
  await connect(page, seed.keys.admin.secret);
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: `The server could not be reached at ${unreachable}` }),
  ).toBeVisible();
  await expect(whoAmI(page)).toHaveCount(0);
  const stored = await storedValues(page);
  expect([...stored.local, ...stored.session].join('\n')).not.toContain(seed.keys.admin.secret);
});

test('not remembered: the key lives in this tab only, and survives its reload', async ({
  page,
  context,
  seed,
  newContext,
}) => {
  const viewer = seed.keys.viewer;
  await connectAs(page, viewer, { remember: false });
  const stored = await storedValues(page);
  expect(stored.session.join('\n')).toContain(viewer.secret);
  expect(stored.local.join('\n')).not.toContain(viewer.secret);

  await page.reload();
  await expect(whoAmI(page)).toContainText(String(viewer.status?.email));

  // Another tab of the same browser does not have it...
  const otherTab = await context.newPage();
  await otherTab.goto('/configs');
  await expectSentToSettings(otherTab, NOT_CONNECTED);

  // ...nor another browser, and once the tab is closed it is gone.
  await page.close();
  const elsewhere = await (await newContext()).newPage();
  await elsewhere.goto('/configs');
  await expectSentToSettings(elsewhere, NOT_CONNECTED);
  await otherTab.reload();
  await expectSentToSettings(otherTab, NOT_CONNECTED);
});

test('remembered: the key stays on this device across reloads and tabs', async ({
  page,
  context,
  seed,
  newContext,
}) => {
  const viewer = seed.keys.viewer;
  await connectAs(page, viewer, { remember: true });
  const stored = await storedValues(page);
  expect(stored.local.join('\n')).toContain(viewer.secret);

  await page.reload();
  await expect(whoAmI(page)).toContainText(String(viewer.status?.email));

  await page.close();
  const newTab = await context.newPage();
  await newTab.goto('/configs');
  await expect(newTab).toHaveURL((url) => url.pathname === '/configs');
  await expect(whoAmI(newTab)).toContainText(String(viewer.status?.email));

  // Another device (browser context) knows nothing of it.
  const elsewhere = await (await newContext()).newPage();
  await elsewhere.goto('/configs');
  await expectSentToSettings(elsewhere, NOT_CONNECTED);
});

test('sign out forgets the key', async ({ page, context, seed }) => {
  const admin = seed.keys.admin;
  await connectAs(page, admin, { remember: true });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(whoAmI(page)).toHaveCount(0);
  await expect(page.getByText(`Connected as ${String(admin.status?.email)}`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Connect', exact: true })).toBeVisible();
  const stored = await storedValues(page);
  expect([...stored.local, ...stored.session].join('\n')).not.toContain(admin.secret);

  await page.reload();
  await page.goto('/configs');
  await expectSentToSettings(page, NOT_CONNECTED);
  const newTab = await context.newPage();
  await newTab.goto('/configs');
  await expectSentToSettings(newTab, NOT_CONNECTED);
});
