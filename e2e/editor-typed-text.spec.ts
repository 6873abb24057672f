/**
 * What you type is what is saved: a person deletes a comment, quotes a name, adds a comment
 * of their own, and after the save (and after a reload) the editor holds their text to the
 * character. Save draft is offered only once there is something to save.
 */
import type { Page } from '@playwright/test';
import { connectAs, expect, test } from './fixtures';
import {
  ConfigApi,
  expectEditorText,
  saveButton,
  saveDraft,
  typeIntoEditor,
  uniqueSuffix,
  type ConfigRecord,
} from './editor';

test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ page, seed }) => {
  await connectAs(page, seed.keys.configsAdmin);
});

const HEADER = '# Owned by the shop team: ask before changing.\n';

/** A draft of its own whose text starts with a header comment the person did not write here. */
async function draftWithHeader(api: ConfigApi): Promise<ConfigRecord & { appLines: string }> {
  const suffix = uniqueSuffix();
  const draft = await api.createDraft(`Typed text ${suffix}`, [
    { id: `shop-${suffix}`, name: `Shop ${suffix}`, platform: 'web' },
  ]);
  await api.edit({
    config_id: draft.id,
    summary: `Typed text ${suffix}`,
    operations: [{ edit_text: [{ changes: [{ offset: 0, delete_count: 0, insert: HEADER }] }] }],
  });
  const withHeader = await api.get(draft.id);
  expect(withHeader.yaml.startsWith(HEADER)).toBe(true);
  const appLines = `  - id: shop-${suffix}\n    name: Shop ${suffix}\n    platform: web\n`;
  expect(withHeader.yaml).toContain(appLines);
  return { ...withHeader, appLines };
}

async function openConfig(page: Page, config: ConfigRecord): Promise<void> {
  await page.goto(`/configs/${config.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(config.label);
  await expectEditorText(page, config.yaml);
}

test('deleting the header comment saves, and the comment stays gone after a reload', async ({
  page,
  seed,
}) => {
  const api = ConfigApi.of(seed);
  const draft = await draftWithHeader(api);
  await openConfig(page, draft);

  const typed = draft.yaml.slice(HEADER.length);
  await typeIntoEditor(page, typed);
  await saveDraft(page, 'Drop the header comment');

  await expect(page.getByText(`Saved: revision ${draft.revision + 1}.`)).toBeVisible();
  await expectEditorText(page, typed);
  expect((await api.get(draft.id)).yaml).toBe(typed);
  await page.reload();
  await expectEditorText(page, typed);
  await expect(page.getByText(HEADER.trim())).toHaveCount(0);
});

test('a quoted name and a comment of my own are saved as I typed them', async ({ page, seed }) => {
  const api = ConfigApi.of(seed);
  const draft = await draftWithHeader(api);
  await openConfig(page, draft);

  const typed = draft.yaml.replace(
    draft.appLines,
    `${draft.appLines}  # launches with the campaign\n  - id: rocket\n    name: "🚀 Rocket"\n    platform: 'ios'\n`,
  );
  await typeIntoEditor(page, typed);
  await saveDraft(page, 'Add the rocket app');

  await expect(page.getByText(`Saved: revision ${draft.revision + 1}.`)).toBeVisible();
  await expectEditorText(page, typed);
  const saved = await api.get(draft.id);
  expect(saved.yaml).toBe(typed);
  expect(saved.validation.valid).toBe(true);
  await page.reload();
  await expectEditorText(page, typed);
});

test('Save draft is offered only once the text differs from the saved one', async ({
  page,
  seed,
}) => {
  const draft = await draftWithHeader(ConfigApi.of(seed));
  await openConfig(page, draft);
  await expect(saveButton(page)).toBeDisabled();
  await typeIntoEditor(page, draft.yaml.replace('# Owned', '# Run'));
  await expect(saveButton(page)).toBeEnabled();
});
