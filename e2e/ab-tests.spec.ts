/**
 * The A/B test journeys (docs/console.md, "A/B tests") on the real service, as a person runs them: create a test
 * in a new draft through the form, start it (the draft goes live), end it, promote a winner
 * (its settings land in the app), delete it; and what the form, the keys' permissions and
 * the server's refusals look like. They run on the Umbrella account, whose live config no
 * other spec touches; every test uses ids of its own.
 */
import type { Locator, Page } from '@playwright/test';
import {
  ConfigApi,
  editorValue,
  expectEditorText,
  typeIntoEditor,
  saveDraft,
  uniqueSuffix,
} from './editor';
import { connectAs, expect, expectNoAxeViolations, saveScreenshot, test } from './fixtures';
import type { Seed } from './seed';

const CHECKOUT = {
  id: 'checkout',
  name: 'Checkout',
  platform: 'web',
  settings: { button_size: 'small', theme: 'light' },
};
const IOS = { id: 'ios-app', name: 'Shop for iOS', platform: 'ios' };

/** The account's live config holds the apps the journeys test (made once per run). */
async function ensureApps(seed: Seed): Promise<void> {
  const api = ConfigApi.of(seed, seed.keys.abAdmin);
  if ((await api.live()).yaml.includes('id: checkout')) return;
  const draft = await api.createDraft('Checkout and iOS', [CHECKOUT, IOS]);
  await api.publish(draft.id, 'Checkout and iOS');
}

test.beforeEach(async ({ seed }) => {
  await ensureApps(seed);
});

function h1(page: Page): Locator {
  return page.getByRole('heading', { level: 1 });
}

function lifecycle(page: Page): Locator {
  return page.getByRole('region', { name: 'Lifecycle' });
}

function about(page: Page): Locator {
  return page.getByRole('region', { name: 'About the test' });
}

/** The value shown for a term of the test's details ("Status", "Winner", ...). */
function detail(page: Page, term: string): Locator {
  return about(page).locator(`dt:text-is("${term}") + dd`);
}

function variantsGroup(page: Page): Locator {
  return page.getByRole('group', { name: 'Variants' });
}

async function openNewTestForm(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'A/B tests' })
    .click();
  await expect(h1(page)).toHaveText('A/B tests');
  await page.getByRole('link', { name: 'New A/B test' }).click();
  await expect(h1(page)).toHaveText('New A/B test');
}

/** Fills the create form: a control and a `big` variant that overrides the button size. */
async function fillNewTest(page: Page, testId: string): Promise<void> {
  await page.getByLabel('Test id').fill(testId);
  await page.getByLabel('App', { exact: true }).selectOption('checkout');
  await page.getByLabel('Description').fill(`Does a bigger button sell more? (${testId})`);
  const variants = variantsGroup(page);
  await variants.getByLabel('Variant 2 id').fill('big');
  await variants.getByRole('button', { name: 'Add a setting to variant 2' }).click();
  await variants.getByLabel('Variant 2 setting 1', { exact: true }).fill('button_size');
  await variants.getByLabel('Variant 2 setting 1 value').fill('large');
}

/** Runs a lifecycle step through its dialog, with a version label. */
async function runStep(page: Page, verb: string, title: string, label: string): Promise<void> {
  await lifecycle(page).getByRole('button', { name: verb, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Version label').fill(label);
  await dialog
    .getByRole('button', { name: verb === 'Edit' ? 'Save and publish' : verb, exact: true })
    .click();
  await expect(dialog).toBeHidden();
}

function outcome(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: 'now live' });
}

test('the whole lifecycle: create in a new draft, start, end, promote, delete', async ({
  page,
  seed,
}) => {
  const api = ConfigApi.of(seed, seed.keys.abAdmin);
  const suffix = uniqueSuffix();
  const testId = `cta-${suffix}`;
  await connectAs(page, seed.keys.abAdmin);

  // Create: the test lands in a new draft, and the page is the test's, in that draft.
  await openNewTestForm(page);
  await fillNewTest(page, testId);
  await page.getByLabel('Draft name').fill(`CTA test ${suffix}`);
  await expect(variantsGroup(page).getByText('Total weight: 100 of 100')).toBeVisible();
  await page.getByRole('button', { name: 'Create test' }).click();
  await expect(h1(page)).toHaveText(`A/B test ${testId}`);
  await expect(page.getByRole('status')).toContainText(
    `Created ${testId} in the new draft “CTA test ${suffix}”.`,
  );
  await expect(detail(page, 'Status')).toHaveText('Draft');
  await expect(detail(page, 'Config')).toHaveText(`Draft: CTA test ${suffix}`);
  const draftId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
  const draft = await api.get(draftId);
  expect(draft).toMatchObject({ kind: 'draft', label: `CTA test ${suffix}` });
  await saveScreenshot(page, 'ab-test-draft');

  // Start: the draft goes live with the test running.
  await runStep(page, 'Start', `Start ${testId}?`, `Start CTA ${suffix}`);
  await expect(page).toHaveURL((url) => url.pathname === `/ab-tests/live/${testId}`);
  await expect(outcome(page)).toContainText(
    `Started ${testId}. Published as the version “Start CTA ${suffix}”, which is now live.`,
  );
  await expect(detail(page, 'Status')).toHaveText('Running');
  await expect(detail(page, 'Config')).toHaveText(`Live: Start CTA ${suffix}`);
  await expect(detail(page, 'Started')).toContainText('UTC');
  let live = await api.live();
  expect(live.label).toBe(`Start CTA ${suffix}`);
  expect(live.yaml).toContain(`id: ${testId}`);
  await expect(page.getByRole('link', { name: `Open Start CTA ${suffix}` })).toHaveAttribute(
    'href',
    `/configs/${live.id}`,
  );
  await expect(lifecycle(page).getByRole('button')).toHaveText(['Edit', 'End', 'Promote']);

  // End.
  await runStep(page, 'End', `End ${testId}?`, `End CTA ${suffix}`);
  await expect(outcome(page)).toContainText(`Ended ${testId}.`);
  await expect(detail(page, 'Status')).toHaveText('Ended');
  await expect(detail(page, 'Ended')).toContainText('UTC');

  // Promote: choosing the winner shows what it copies into the app.
  await lifecycle(page).getByRole('button', { name: 'Promote' }).click();
  const promote = page.getByRole('dialog', { name: `Promote a winner of ${testId}?` });
  await promote.getByRole('radio', { name: 'big' }).check();
  const copied = promote.getByRole('table', { name: 'Settings copied into checkout from big' });
  await expect(copied.getByRole('row', { name: 'button_size small large' })).toBeVisible();
  await promote.getByRole('button', { name: 'Promote' }).click();
  await expect(promote).toBeHidden();
  await expect(outcome(page)).toContainText(`Promoted ${testId}.`);
  await expect(detail(page, 'Status')).toHaveText('Promoted');
  await expect(detail(page, 'Winner')).toHaveText('big');
  live = await api.live();
  expect(live.yaml).toMatch(/id: checkout\n(.*\n)*? {6}button_size: large/);
  expect(live.validation.valid).toBe(true);

  // Delete: back on the list, which no longer has it.
  await runStep(page, 'Delete', `Delete ${testId}?`, `Delete CTA ${suffix}`);
  await expect(page).toHaveURL((url) => url.pathname === '/ab-tests');
  await expect(outcome(page)).toContainText(`Deleted ${testId}.`);
  await expect(page.getByRole('table', { name: 'A/B tests' })).toBeVisible();
  await expect(page.getByRole('link', { name: testId, exact: true })).toHaveCount(0);
  expect((await api.live()).yaml).not.toContain(`id: ${testId}`);
  // The app keeps the winner's settings.
  expect((await api.live()).yaml).toContain('button_size: large');
});

test('weights that do not add up to 100 block the form', async ({ page, seed }) => {
  const api = ConfigApi.of(seed, seed.keys.abAdmin);
  const configsBefore = (await api.list()).length;
  await connectAs(page, seed.keys.abAdmin);
  await openNewTestForm(page);
  await fillNewTest(page, `weights-${uniqueSuffix()}`);
  const variants = variantsGroup(page);
  await variants.getByLabel('Variant 2 weight').fill('40');
  await expect(variants.getByText('Total weight: 90 of 100')).toBeVisible();
  await page.getByRole('button', { name: 'Create test' }).click();
  await expect(
    variants.getByText('The weights add up to 90; they must add up to 100.'),
  ).toBeVisible();
  await expect(h1(page)).toHaveText('New A/B test');
  expect(await api.list()).toHaveLength(configsBefore);

  // Removing a variant leaves the other weights as typed.
  await variants.getByRole('button', { name: 'Add variant' }).click();
  await variants.getByLabel('Variant 3 id').fill('huge');
  await variants.getByLabel('Variant 3 weight').fill('10');
  await variants.getByRole('button', { name: 'Remove variant 2', exact: true }).click();
  await expect(variants.getByLabel('Variant 1 weight')).toHaveValue('50');
  await expect(variants.getByLabel('Variant 2 id')).toHaveValue('huge');
  await expect(variants.getByLabel('Variant 2 weight')).toHaveValue('10');
  await expect(variants.getByText('Total weight: 60 of 100')).toBeVisible();
  await expectNoAxeViolations(page);
});

test('a viewer sees the tests but no buttons', async ({ page, seed }) => {
  const api = ConfigApi.of(seed, seed.keys.abAdmin);
  const testId = `seen-${uniqueSuffix()}`;
  await api.edit({
    operations: [
      {
        create_ab_test: [
          {
            id: testId,
            app: 'checkout',
            variants: [
              { id: 'control', weight: 50 },
              { id: 'big', weight: 50 },
            ],
          },
        ],
      },
    ],
  });
  await connectAs(page, seed.keys.abViewer);
  await page.goto('/ab-tests');
  const row = page.getByRole('row', { name: new RegExp(testId) });
  await expect(row).toContainText('Draft');
  await expect(row).toContainText('control 50');
  await expect(page.getByRole('link', { name: 'New A/B test' })).toHaveCount(0);
  await row.getByRole('link', { name: testId, exact: true }).click();
  await expect(h1(page)).toHaveText(`A/B test ${testId}`);
  await expect(lifecycle(page)).toContainText('needs the config:publish permission');
  await expect(lifecycle(page).getByRole('button')).toHaveCount(0);
  // What is left is reading: the unit box's Show.
  await expect(page.getByRole('main').getByRole('button')).toHaveText(['Show']);
});

test('an editor creates a test in a draft but cannot start it', async ({ page, seed }) => {
  const testId = `edited-${uniqueSuffix()}`;
  await connectAs(page, seed.keys.abEditor);
  await openNewTestForm(page);
  await fillNewTest(page, testId);
  await page.getByRole('button', { name: 'Create test' }).click();
  await expect(h1(page)).toHaveText(`A/B test ${testId}`);
  await expect(detail(page, 'Status')).toHaveText('Draft');
  await expect(lifecycle(page)).toContainText('needs the config:publish permission');
  await expect(lifecycle(page).getByRole('button')).toHaveCount(0);
});

test('a start refused because the draft is invalid says why', async ({
  page,
  seed,
  consoleErrors,
}) => {
  consoleErrors.allowFailedRequest(409, '/api/v1/config/edit');
  const api = ConfigApi.of(seed, seed.keys.abAdmin);
  const suffix = uniqueSuffix();
  const testId = `broken-${suffix}`;
  const result = await api.edit({
    summary: `Broken ${suffix}`,
    operations: [
      { create_app: [{ id: `desk-${suffix}`, name: 'Desk', platform: 'desktop' }] },
      {
        create_ab_test: [
          {
            id: testId,
            app: 'checkout',
            variants: [
              { id: 'control', weight: 50 },
              { id: 'big', weight: 50 },
            ],
          },
        ],
      },
    ],
  });
  const liveBefore = await api.live();
  await connectAs(page, seed.keys.abAdmin);
  await page.goto(`/ab-tests/${result.id}/${testId}`);
  await lifecycle(page).getByRole('button', { name: 'Start' }).click();
  const dialog = page.getByRole('dialog', { name: `Start ${testId}?` });
  await dialog.getByRole('button', { name: 'Start' }).click();
  const alert = dialog.getByRole('alert');
  await expect(alert).toContainText(`${testId} was not started.`);
  await expect(alert).toContainText('The result would have 1 error');
  await expect(alert).toContainText('must be one of web, ios, android, server');
  await expect(alert).toContainText('/apps/');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(detail(page, 'Status')).toHaveText('Draft');
  expect((await api.live()).id).toBe(liveBefore.id);
});

test('the editor and this page agree: a test made here is in the YAML, an edit there shows here', async ({
  page,
  seed,
}) => {
  const testId = `agree-${uniqueSuffix()}`;
  await connectAs(page, seed.keys.abAdmin);
  await openNewTestForm(page);
  await fillNewTest(page, testId);
  await page.getByRole('button', { name: 'Create test' }).click();
  await expect(h1(page)).toHaveText(`A/B test ${testId}`);

  await page.getByRole('link', { name: 'Open the draft in the editor' }).click();
  await expect(page).toHaveURL((url) => /^\/configs\/cfg_/.test(url.pathname));
  const draftId = new URL(page.url()).pathname.split('/')[2] ?? '';
  const saved = await ConfigApi.of(seed, seed.keys.abAdmin).get(draftId);
  await expectEditorText(page, saved.yaml);
  const text = await editorValue(page);
  expect(text).toContain(`- id: ${testId}`);
  expect(text).toContain('button_size: large');

  // Change the description in YAML and save: the test page shows the new one.
  const edited = text.replace(`Does a bigger button sell more? (${testId})`, 'Edited in YAML');
  await typeIntoEditor(page, edited);
  await saveDraft(page, 'Describe it in YAML');
  await expect(page.getByText('Saved: revision 2.')).toBeVisible();
  await page.goto(`/ab-tests/${draftId}/${testId}`);
  await expect(detail(page, 'Description')).toHaveText('Edited in YAML');

  // The draft's editor page leads to a new test in the same draft.
  await page.getByRole('link', { name: `Draft: ${saved.label}` }).click();
  await page.getByRole('link', { name: 'New A/B test in this draft' }).click();
  await expect(page.getByLabel('Create in')).toHaveValue(draftId);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the A/B test pages and a step dialog have no axe violations (${colorScheme})`, async ({
    page,
    seed,
  }) => {
    const api = ConfigApi.of(seed, seed.keys.abAdmin);
    const testId = `axe-${colorScheme}-${uniqueSuffix()}`;
    const draft = await api.edit({
      operations: [
        {
          create_ab_test: [
            {
              id: testId,
              app: 'checkout',
              description: 'For the accessibility check',
              variants: [
                { id: 'control', weight: 50 },
                { id: 'big', weight: 50, settings: { button_size: 'large' } },
              ],
            },
          ],
        },
      ],
    });
    await page.emulateMedia({ colorScheme });
    await connectAs(page, seed.keys.abAdmin);
    await page.goto('/ab-tests');
    await expect(page.getByRole('table', { name: 'A/B tests' })).toBeVisible();
    await expectNoAxeViolations(page);
    await saveScreenshot(page, `ab-tests-${colorScheme}`);

    await page.goto('/ab-tests/new');
    await expect(variantsGroup(page)).toBeVisible();
    await expectNoAxeViolations(page);
    await saveScreenshot(page, `ab-test-new-${colorScheme}`);

    await page.goto(`/ab-tests/${draft.id}/${testId}`);
    await expect(detail(page, 'Status')).toHaveText('Draft');
    await expectNoAxeViolations(page);
    await saveScreenshot(page, `ab-test-${colorScheme}`);
    await lifecycle(page).getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByRole('dialog', { name: `Edit ${testId}` })).toBeVisible();
    await expectNoAxeViolations(page);
    await saveScreenshot(page, `ab-test-edit-dialog-${colorScheme}`);
  });
}
