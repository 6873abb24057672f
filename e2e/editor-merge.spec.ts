/**
 * Two people edit one draft (docs/console.md, "Edits that merge"): each browser context is a
 * person with a key of their own, both on a draft made through the API. Edits of different
 * things merge without a question; edits of the same field open the merge view, and the
 * value each person chooses there is the one saved.
 */
import type { Locator, Page } from '@playwright/test';
import { parseDocument } from 'yaml';
import { connectAs, expect, test } from './fixtures';
import {
  appIds,
  appIn,
  appIndex,
  ConfigApi,
  editYaml,
  expectEditorText,
  saveDraft,
  typeIntoEditor,
  uniqueSuffix,
  withApp,
  type ConfigRecord,
} from './editor';

// Two browsers each load Monaco: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

const MERGE_VIEW = 'Your edit and a newer one changed the same fields';
const FIRST_PERSON = 'ines@initech.test';

async function openConfig(page: Page, config: ConfigRecord): Promise<void> {
  await page.goto(`/configs/${config.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(config.label);
  await expectEditorText(page, config.yaml);
}

function notice(page: Page, text: string | RegExp): Locator {
  return page.getByText(text);
}

/** `text` with the app `id` renamed. */
function renamed(text: string, id: string, name: string): string {
  return editYaml(text, (document) =>
    document.setIn(['apps', appIndex(document, id), 'name'], name),
  );
}

test.beforeEach(async ({ page, seed }) => {
  await connectAs(page, seed.keys.configsAdmin);
});

test.describe('two people edit the same draft', () => {
  /** A fresh draft with one shared app, open in both browsers at revision 1. */
  async function twoEditors(page: Page, seed: Parameters<typeof ConfigApi.of>[0], other: Page) {
    const api = ConfigApi.of(seed);
    const suffix = uniqueSuffix();
    const shared = { id: `shared-${suffix}`, name: 'Shared', platform: 'web' };
    const draft = await api.createDraft(`Shared ${suffix}`, [shared]);
    await connectAs(other, seed.keys.configsEditor);
    await openConfig(page, draft);
    await openConfig(other, draft);
    return { api, draft, shared, suffix };
  }

  test('edits of different things merge with no dialog, and both are saved', async ({
    page,
    seed,
    newContext,
  }) => {
    const other = await (await newContext()).newPage();
    const { api, draft, suffix } = await twoEditors(page, seed, other);

    const first = { id: `first-${suffix}`, name: 'First', platform: 'web' };
    await typeIntoEditor(page, withApp(draft.yaml, first));
    await saveDraft(page, 'Add the first app');
    await expect(notice(page, 'Saved: revision 2.')).toBeVisible();

    // The second person, still on revision 1, adds another app and saves.
    const second = { id: `second-${suffix}`, name: 'Second', platform: 'ios' };
    await typeIntoEditor(other, withApp(draft.yaml, second));
    await saveDraft(other, 'Add the second app');
    await expect(
      notice(
        other,
        new RegExp(`^Saved: revision 3\\. Merged with ${FIRST_PERSON}'s edit \\(revision 2\\)\\.`),
      ),
    ).toBeVisible();
    await expect(other.getByRole('dialog')).toHaveCount(0);

    const current = await api.get(draft.id);
    expect(current.revision).toBe(3);
    expect(appIds(current.yaml)).toEqual(expect.arrayContaining([first.id, second.id]));
    // The second person's editor shows the merged text, as saved.
    await expectEditorText(other, current.yaml);
  });

  /**
   * The first person renames the shared app and saves; the second, on revision 1, renames it
   * too (and adds an app of theirs): the merge view opens with the name's row.
   */
  async function sameField(page: Page, seed: Parameters<typeof ConfigApi.of>[0], other: Page) {
    const editors = await twoEditors(page, seed, other);
    const { draft, shared, suffix } = editors;
    await typeIntoEditor(page, renamed(draft.yaml, shared.id, 'Their name'));
    await saveDraft(page, 'Their name');
    await expect(notice(page, 'Saved: revision 2.')).toBeVisible();

    const mine = { id: `mine-${suffix}`, name: 'Mine', platform: 'ios' };
    await typeIntoEditor(other, withApp(renamed(draft.yaml, shared.id, 'My name'), mine));
    await saveDraft(other, 'My name');
    const dialog = other.getByRole('dialog', { name: MERGE_VIEW });
    await expect(dialog).toBeVisible();
    const index = appIndex(parseDocument(draft.yaml), shared.id);
    const row = dialog.getByRole('group', { name: `/apps/${index}/name` });
    await expect(row).toBeVisible();
    return { ...editors, dialog, row, mine };
  }

  test('the same field opens the merge view, and "Use mine" saves mine', async ({
    page,
    seed,
    newContext,
    consoleErrors,
  }) => {
    consoleErrors.allowFailedRequest(409, '/api/v1/config/edit');
    const other = await (await newContext()).newPage();
    const { api, draft, shared, dialog, row, mine } = await sameField(page, seed, other);

    // Base, theirs (who, which revision) and mine, side by side.
    await expect(row.getByRole('columnheader')).toHaveText([
      'Base',
      new RegExp(`^Theirs: ${FIRST_PERSON}, revision 2, `),
      'Yours',
    ]);
    await expect(row.getByRole('cell')).toHaveText(['"Shared"', '"Their name"', '"My name"']);

    await row.getByRole('radio', { name: 'Use mine' }).check();
    await dialog.getByRole('button', { name: 'Save with these choices' }).click();
    await expect(notice(other, 'Saved: revision 3.')).toBeVisible();
    await expect(dialog).toBeHidden();

    const current = await api.get(draft.id);
    expect(appIn(current.yaml, shared.id)?.name).toBe('My name');
    expect(appIds(current.yaml)).toContain(mine.id);
    await expectEditorText(other, current.yaml);
  });

  test('"Keep theirs" saves theirs, with the rest of my edit', async ({
    page,
    seed,
    newContext,
    consoleErrors,
  }) => {
    consoleErrors.allowFailedRequest(409, '/api/v1/config/edit');
    const other = await (await newContext()).newPage();
    const { api, draft, shared, dialog, row, mine } = await sameField(page, seed, other);

    await row.getByRole('radio', { name: 'Keep theirs' }).check();
    await dialog.getByRole('button', { name: 'Save with these choices' }).click();
    await expect(notice(other, 'Saved: revision 3.')).toBeVisible();

    const current = await api.get(draft.id);
    expect(appIn(current.yaml, shared.id)?.name).toBe('Their name');
    expect(appIds(current.yaml)).toContain(mine.id);
    await expectEditorText(other, current.yaml);
  });
});
