/**
 * A/B test steps in the editor (docs/console.md, "A/B steps in the text"): above each test
 * of the YAML, CodeLenses offer the lifecycle steps its status and the key allow, and open
 * the A/B pages' dialogs. The journeys run on the Umbrella account, as the A/B test
 * journeys do (every step changes its live config), each with a test id of its own.
 */
import type { Locator, Page } from '@playwright/test';
import { parseDocument } from 'yaml';
import {
  clickIntoEditor,
  ConfigApi,
  EDITOR_LOAD_TIMEOUT,
  editorRoot,
  editorValue,
  expectEditorText,
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

/** A new draft from the live config with a draft test `testId` in it. */
async function draftWithTest(seed: Seed, testId: string): Promise<{ id: string; yaml: string }> {
  const api = ConfigApi.of(seed, seed.keys.abAdmin);
  if (!(await api.live()).yaml.includes('id: checkout')) {
    const apps = await api.createDraft('Checkout', [CHECKOUT]);
    await api.publish(apps.id, 'Checkout');
  }
  const result = await api.edit({
    summary: `Draft with ${testId}`,
    operations: [
      {
        create_ab_test: [
          {
            id: testId,
            app: 'checkout',
            variants: [
              { id: 'control', weight: 50 },
              { id: 'big', weight: 50, settings: { button_size: 'large' } },
            ],
          },
        ],
      },
    ],
  });
  expect(result.created, 'the edit made a new draft').toBe(true);
  return api.get(result.id);
}

/** The CodeLenses of the editor "Config YAML" (Monaco draws them as buttons). */
function lenses(page: Page): Locator {
  return editorRoot(page).locator('.codelens-decoration');
}

/** Moves the cursor to the test's line (Ctrl+G): Monaco renders only the lines in view. */
async function goToTest(page: Page, yaml: string, testId: string): Promise<void> {
  await clickIntoEditor(page);
  const line = yaml.split('\n').indexOf(`  - id: ${testId}`) + 1;
  await page.keyboard.press('Control+G');
  await page.keyboard.insertText(String(line));
  await page.keyboard.press('Enter');
}

/** The status of test `testId` in a YAML text. */
function statusOf(text: string, testId: string): unknown {
  const data = parseDocument(text).toJS() as { ab_tests?: { id: string; status?: string }[] };
  return data.ab_tests?.find((candidate) => candidate.id === testId)?.status;
}

test('a draft test is started from the CodeLens above it, in the A/B pages’ dialog', async ({
  page,
  seed,
}) => {
  const testId = `lens-${uniqueSuffix()}`;
  const draft = await draftWithTest(seed, testId);
  await connectAs(page, seed.keys.abAdmin);
  await page.goto(`/configs/${draft.id}`);
  await expectEditorText(page, draft.yaml);
  await goToTest(page, draft.yaml, testId);

  // The lenses sit on the test's line: Start among the steps a draft test allows.
  const testLens = lenses(page).filter({ hasText: 'Start' });
  await expect(testLens).toHaveCount(1, { timeout: EDITOR_LOAD_TIMEOUT });
  await expect(testLens.getByRole('button')).toHaveText(['Edit', 'Start', 'Delete']);
  const lensBox = await testLens.boundingBox();
  const lineBox = await editorRoot(page)
    .locator('.view-line')
    .filter({ hasText: `- id: ${testId}` })
    .boundingBox();
  expect(lensBox && lineBox && lensBox.y < lineBox.y, 'the lens is above the test').toBe(true);
  expect(lineBox && lensBox && lineBox.y - lensBox.y < 2 * lineBox.height, 'right above').toBe(
    true,
  );

  await testLens.getByRole('button', { name: 'Start' }).click();
  const dialog = page.getByRole('dialog', { name: `Start ${testId}?` });
  await expect(dialog).toContainText('publishes the draft');
  await dialog.getByLabel(/^Version label/).fill(`Start ${testId} from the editor`);
  await dialog.getByRole('button', { name: 'Start' }).click();

  // The published version opens: the test runs there, and now offers End instead.
  await expect(page.getByText(`Started ${testId}. Published as the version`)).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname !== `/configs/${draft.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Start ${testId} from the editor`,
  );
  await expect.poll(async () => statusOf(await editorValue(page), testId)).toBe('running');
  const runningLens = lenses(page).filter({ hasText: 'End' });
  await expect(runningLens.getByRole('button')).toHaveText(['Edit', 'End', 'Promote']);

  const live = await ConfigApi.of(seed, seed.keys.abAdmin).live();
  expect(statusOf(live.yaml, testId)).toBe('running');
  expect(new URL(page.url()).pathname).toBe(`/configs/${live.id}`);
});

test('by keyboard, the steps of the test under the cursor are in the command palette', async ({
  page,
  seed,
}) => {
  const testId = `lens-keys-${uniqueSuffix()}`;
  const draft = await draftWithTest(seed, testId);
  await connectAs(page, seed.keys.abAdmin);
  await page.goto(`/configs/${draft.id}`);
  await expectEditorText(page, draft.yaml);
  // Go to the test's line (Ctrl+G), then F1: "Show CodeLens Commands for Current Line".
  await goToTest(page, draft.yaml, testId);
  await expect(lenses(page).filter({ hasText: 'Start' })).toHaveCount(1, {
    timeout: EDITOR_LOAD_TIMEOUT,
  });
  await page.keyboard.press('F1');
  await page.keyboard.insertText('Show CodeLens Commands');
  await page.keyboard.press('Enter');
  const start = page.getByRole('option', { name: 'Start' });
  await expect(start).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: `Start ${testId}?` })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

/** WCAG contrast ratio of two `rgb(r, g, b)` colours. */
function contrast(foreground: string, background: string): number {
  const luminance = (colour: string) => {
    const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map((part) => {
      const channel = Number(part) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the editor with A/B step lenses has no axe violations (${colorScheme})`, async ({
    page,
    seed,
  }) => {
    await page.emulateMedia({ colorScheme });
    const testId = `lens-axe-${colorScheme}-${uniqueSuffix()}`;
    const draft = await draftWithTest(seed, testId);
    await connectAs(page, seed.keys.abAdmin);
    await page.goto(`/configs/${draft.id}`);
    await expectEditorText(page, draft.yaml);
    await goToTest(page, draft.yaml, testId);
    await expect(lenses(page).filter({ hasText: 'Start' })).toHaveCount(1, {
      timeout: EDITOR_LOAD_TIMEOUT,
    });
    // axe may not tell the background behind Monaco's widgets: measure the lens text itself,
    // now, while its line is on screen (Monaco renders only the lines in view).
    const lensColour = await lenses(page)
      .getByRole('button', { name: 'Start' })
      .evaluate((element) => getComputedStyle(element).color);
    const background = await editorRoot(page)
      .locator('.lines-content.monaco-editor-background')
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(contrast(lensColour, background)).toBeGreaterThanOrEqual(4.5);
    await expectNoAxeViolations(page);
    await saveScreenshot(page, `editor-ab-step-lenses-${colorScheme}`);
  });
}
