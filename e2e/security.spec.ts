/**
 * The console under the service's Content-Security-Policy, and where a key is kept
 * (docs/reliability.md; docs/console.md, "Signing in"). Every journey fails on a CSP
 * violation (fixtures.ts listens for them); these tests prove the listener works, that the
 * policy is the one the console runs under, and that a key used to sign in is kept nowhere:
 * the browser holds only an HttpOnly session cookie.
 */
import type { Page } from '@playwright/test';
import { currentEditorState } from './editor';
import { ConsoleErrors, connectAs, everythingStored, expect, test, whoAmI } from './fixtures';

test('the console runs under the CSP, and a violation would fail a journey', async ({
  page,
  browser,
  baseURL,
}) => {
  const response = await page.goto('/settings');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).toContain("frame-ancestors 'none'");

  // A context the fixture does not watch: an inline script is refused, and reported.
  const context = await browser.newContext({ baseURL });
  const errors = new ConsoleErrors();
  await errors.watch(context);
  const probe = await context.newPage();
  await probe.goto('/settings');
  await probe.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true';
    document.body.append(script);
  });
  await expect
    .poll(() => errors.recorded.filter((error) => error.includes('securitypolicyviolation')))
    .toHaveLength(1);
  expect(errors.recorded.join('\n')).toContain('"script-src-elem"');
  expect(await probe.evaluate(() => 'inlineRan' in window)).toBe(false);
  await context.close();
});

/** Settings, configs, the editor (Monaco and its workers), A/B tests, and a key created. */
async function walkTheConsole(page: Page, check: () => Promise<void>): Promise<string> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await check();
  await nav.getByRole('link', { name: 'Configs' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/configs');
  await page.getByRole('link', { name: 'Open the live config' }).click();
  await currentEditorState(page);
  await check();
  await nav.getByRole('link', { name: 'A/B tests' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/ab-tests');
  await check();
  await nav.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Name', { exact: true }).fill(`Storage probe ${Date.now().toString(36)}`);
  await page.getByRole('button', { name: 'Create key' }).click();
  const created = await page.getByRole('textbox', { name: 'New API key' }).inputValue();
  expect(created).toMatch(/^sk_/);
  await check();
  return created;
}

test('a key used to sign in is kept nowhere; the session cookie is HttpOnly, and gone in effect after sign-out', async ({
  page,
  seed,
  context,
}) => {
  const admin = seed.keys.admin;
  await page.goto('/settings');
  await connectAs(page, admin);

  const created = await walkTheConsole(page, async () => {
    // No secret is kept anywhere, neither the key signed in with nor a new one.
    expect(await everythingStored(page)).not.toMatch(/sk_[0-9A-Za-z]{10,}/);
  });
  expect(await everythingStored(page)).not.toContain(created);
  const cookies = await context.cookies();
  expect(cookies.map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite])).toEqual([
    ['sid', true, 'Strict'],
  ]);
  expect(await page.evaluate(() => document.cookie)).toBe('');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(whoAmI(page)).toHaveCount(0);
  const stored = await everythingStored(page);
  expect(stored).not.toContain(admin.secret);
  expect(stored).not.toMatch(/sk_[0-9A-Za-z]{10,}/);
  // Nor on the page itself: the form is empty, the new key's box is gone.
  expect(await page.content()).not.toContain(admin.secret);
  expect(await page.content()).not.toContain(created);
  await page.reload();
  expect(await everythingStored(page)).not.toMatch(/sk_[0-9A-Za-z]{10,}/);
});
