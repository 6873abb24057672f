/**
 * A long config list (docs/console.md, "Lists, pages and search"): the first page shows, the
 * next pages load as the person scrolls down, and a search finds a draft the first page does
 * not hold, asked of the server. The account is the test's own, so its 70 drafts crowd no
 * other journey's list.
 */
import { ConfigApi, uniqueSuffix } from './editor';
import { connectAs, expect, test } from './fixtures';
import { provisioning, type CreatedKey, type SeedKey } from './seed';

const DRAFTS = 70;

test('scrolling loads the whole config list, and the search finds a draft on the server', async ({
  page,
  seed,
}) => {
  test.setTimeout(90_000);
  const suffix = uniqueSuffix();
  const email = `lee-${suffix}@lists.test`;
  const account = provisioning([
    ...['accounts', 'create', '--name', `Lists ${suffix}`, '--owner-email', email],
  ]) as { user_id: string };
  const key = provisioning([
    'keys',
    'create',
    '--user',
    account.user_id,
    '--name',
    'Lists',
  ]) as CreatedKey;
  const api = new ConfigApi(seed.baseURL, { secret: key.secret } as SeedKey);
  // The oldest draft is the one to find: newest first, it is on the last page.
  await api.createDraft(`Needle ${suffix}`, [{ id: 'needle', name: 'Needle', platform: 'web' }]);
  for (let n = 1; n < DRAFTS; n++) {
    await api.createDraft(`Hay ${n}`, [{ id: `hay-${n}`, name: `Hay ${n}`, platform: 'web' }]);
  }

  await connectAs(page, { secret: key.secret, status: { email } });
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Configs' })
    .click();
  const table = page.getByRole('table', { name: 'Configs' });
  const labels = table.getByRole('link');
  // The first page: the newest 50.
  await expect(labels).toHaveCount(50);
  await expect(labels.first()).toHaveText(`Hay ${DRAFTS - 1}`);
  await expect(table.getByRole('link', { name: `Needle ${suffix}` })).toHaveCount(0);

  // Scrolling to the end reads the rest: the drafts and the live config.
  await page.getByRole('button', { name: 'Load more configs' }).scrollIntoViewIfNeeded();
  await expect(labels).toHaveCount(DRAFTS + 1);
  await expect(table.getByRole('link', { name: `Needle ${suffix}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Load more configs' })).toHaveCount(0);

  // A fresh visit holds the first page only; the server finds the needle.
  await page.reload();
  await expect(labels).toHaveCount(50);
  await page.getByRole('searchbox', { name: 'Search configs' }).fill('needle');
  await expect(labels).toHaveCount(1);
  await expect(labels).toHaveText(`Needle ${suffix}`);
  await expect(page).toHaveURL(/[?&]q=needle\b/);
  await page.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Published versions' });
  await expect(table).toContainText('No configs match.');
});
