/**
 * Every page (docs/console.md, "Pages and accessible names"): its own URL, one h1, the banner and the Main
 * navigation, the whoami panel while connected, zero axe-core violations in the light and the
 * dark theme, and a screenshot of each kept in test-results/screenshots/.
 */
import { ConfigApi } from './editor';
import { connectAs, expect, expectNoAxeViolations, saveScreenshot, test, whoAmI } from './fixtures';

const PAGES = [
  { path: '/settings', link: 'Settings', file: 'settings' },
  { path: '/configs', link: 'Configs', file: 'configs' },
  { path: '/ab-tests', link: 'A/B tests', file: 'ab-tests' },
  { path: '/metrics', link: 'Metrics', file: 'metrics' },
  { path: '/delivery', link: 'Delivery', file: 'delivery' },
] as const;

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the sign-in page, where a signed-out visit lands, is accessible', async ({ page }) => {
      await page.goto('/settings');
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
      await expect(page.getByRole('banner')).toContainText('Provisioning Console');
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expectNoAxeViolations(page);
      await saveScreenshot(page, `sign-in-${colorScheme}`);
    });

    test('each page, connected, has its URL, one h1, the panel, and no axe violations', async ({
      page,
      seed,
    }) => {
      await connectAs(page, seed.keys.admin);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(page.getByRole('banner')).toContainText('Provisioning Console');

      for (const { path, link, file } of PAGES) {
        await nav.getByRole('link', { name: link, exact: true }).click();
        await expect(page).toHaveURL((url) => url.pathname === path);
        // The URL changes at once; the page's own h1 once its chunk has loaded.
        const h1 = page.getByRole('heading', { level: 1 });
        await expect(h1).toHaveText(link);
        await expect(h1).toHaveCount(1);
        const title = await h1.innerText();
        await expect(whoAmI(page)).toBeVisible();
        await expectNoAxeViolations(page);
        await saveScreenshot(page, `${file}-${colorScheme}`);

        // A reload (or a shared link) lands on the same view.
        await page.reload();
        await expect(page).toHaveURL((url) => url.pathname === path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
        await expect(whoAmI(page)).toBeVisible();
      }
    });
  });
}

test('a deep link to a config page lands there once connected', async ({ page, seed }) => {
  // The page's h1 and title are the config's label (docs/console.md).
  const live = await ConfigApi.of(seed, seed.keys.admin).live();
  await connectAs(page, seed.keys.admin);
  await page.goto('/configs/live');
  await expect(page.getByRole('heading', { level: 1, name: live.label })).toBeVisible();
  await expect(whoAmI(page)).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${live.label} · `));
});
