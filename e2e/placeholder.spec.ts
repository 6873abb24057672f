import { expect, test } from '@playwright/test';

// The smallest journey that proves the harness: the built console loads in Debian's
// Chromium, says what it is, and logs no error.
test('the console page loads and names the product', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Provisioning Console' })).toBeVisible();
  await expect(page).toHaveTitle('Provisioning Console');
  await page.screenshot({ path: 'test-results/screenshots/home.png', fullPage: true });
  expect(errors).toEqual([]);
});
