/**
 * Review before publishing, on the settings page and the config list: an admin asks for one
 * approval, a draft whose review the editor requested shows "In review" in the list, and
 * "Waiting for me" shows it to the admin, not to its author. In the Acme account,
 * whose journeys publish nothing; the policy goes back to none at the end.
 */
import type { Page } from '@playwright/test';
import { ConfigApi, uniqueSuffix } from './editor';
import { connectAs, expect, expectNoAxeViolations, test } from './fixtures';
import type { Seed, SeedKey } from './seed';

async function callApi(seed: Seed, key: SeedKey, method: string, path: string, body?: unknown) {
  const response = await fetch(`${seed.baseURL}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key.secret}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : ((await response.json()) as unknown);
}

function setPolicy(seed: Seed, approvalsRequired: number) {
  return callApi(seed, seed.keys.admin, 'PUT', '/account/policy', {
    approvals_required: approvalsRequired,
    reset_approvals_on_edit: true,
  });
}

async function configLabels(page: Page): Promise<string[]> {
  const table = page.getByRole('table', { name: 'Configs' });
  await expect(table).toBeVisible();
  return table.getByRole('link').allInnerTexts();
}

test('an admin asks for an approval; the list shows who waits for whose review', async ({
  page,
  seed,
  newContext,
}) => {
  const drafts: string[] = [];
  try {
    await connectAs(page, seed.keys.admin);
    await page.goto('/settings');
    const form = page.getByRole('form', { name: 'Review policy' });
    await expect(form).toBeVisible();
    await expectNoAxeViolations(page);

    await form.getByRole('spinbutton', { name: 'Approvals required' }).fill('1');
    await form.getByRole('button', { name: 'Save policy' }).click();
    await expect(page.getByText('Saved the review policy.')).toBeVisible();
    await page.reload();
    await expect(
      page
        .getByRole('form', { name: 'Review policy' })
        .getByRole('spinbutton', { name: 'Approvals required' }),
    ).toHaveValue('1');

    // The editor's draft, and one of the admin's own, both asked to be reviewed.
    const suffix = uniqueSuffix();
    const theirs = await ConfigApi.of(seed, seed.keys.editor).createDraft(`Eddie ${suffix}`, [
      { id: `kiosk-${suffix}`, name: 'Kiosk', platform: 'web' },
    ]);
    drafts.push(theirs.id);
    await callApi(seed, seed.keys.editor, 'POST', `/configs/${theirs.id}/review-request`, {});
    const own = await ConfigApi.of(seed, seed.keys.admin).createDraft(`Ada ${suffix}`, [
      { id: `tv-${suffix}`, name: 'TV', platform: 'web' },
    ]);
    drafts.push(own.id);
    await callApi(seed, seed.keys.admin, 'POST', `/configs/${own.id}/review-request`, {});

    await page.goto('/configs');
    const row = page.getByRole('row', { name: new RegExp(`Eddie ${suffix}`) });
    await expect(row).toContainText('In review · 0 of 1');
    await page.getByRole('combobox', { name: 'Review' }).selectOption({ label: 'Waiting for me' });
    await expect(page).toHaveURL((url) => url.searchParams.get('review') === 'waiting_for_me');
    await expect.poll(() => configLabels(page)).toContain(`Eddie ${suffix}`);
    expect(await configLabels(page)).not.toContain(`Ada ${suffix}`);
    await expectNoAxeViolations(page);

    // The author sees their draft in review, and not as waiting for them.
    const author = await (await newContext()).newPage();
    await connectAs(author, seed.keys.editor);
    await author.goto('/configs');
    await expect(author.getByRole('row', { name: new RegExp(`Eddie ${suffix}`) })).toContainText(
      'In review',
    );
    await author
      .getByRole('combobox', { name: 'Review' })
      .selectOption({ label: 'Waiting for me' });
    await expect(author.getByText('No drafts wait for your review.')).toBeVisible();
  } finally {
    // Other journeys in this account expect no review and no drafts of ours.
    await setPolicy(seed, 0);
    for (const id of drafts) await callApi(seed, seed.keys.admin, 'DELETE', `/configs/${id}`);
  }
});
