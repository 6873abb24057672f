/**
 * The config editor's journeys (docs/console.md, "Configs and the editor"): a person
 * opens a config, types YAML into Monaco, saves, and sees every problem where it is; drafts
 * are published and rolled back; a version going live while the live config is edited
 * opens the 412 dialog; leaving with unsaved edits asks first.
 *
 * Every test works in the Initech account (seed.configsAccount), on a draft of its own made
 * through the API or by its first save, with ids and labels of its own, so tests do not
 * depend on each other and can be repeated.
 */
import type { Locator, Page } from '@playwright/test';
import { connectAs, expect, saveScreenshot, test } from './fixtures';
import {
  appIds,
  appIn,
  appIndex,
  clickIntoEditor,
  ConfigApi,
  configIdOf,
  countsText,
  currentEditorState,
  DRAFT_URL,
  editorRoot,
  editorState,
  editorTextbox,
  editYaml,
  expectEditorText,
  MarkerSeverity,
  markersOf,
  positionAfter,
  positionOf,
  problemButton,
  problemsRegion,
  saveButton,
  saveDraft,
  SERVER_OWNER,
  summaryField,
  typeIntoEditor,
  uniqueSuffix,
  withApp,
  type ConfigRecord,
  type Issue,
  type MarkerView,
} from './editor';

// Each journey loads Monaco once or twice (two people: two browsers): more than the default
// 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

const CONFIGS_PATH = (url: URL) => url.pathname === '/configs';

function h1(page: Page) {
  return page.getByRole('heading', { level: 1 });
}

function notice(page: Page, text: string) {
  return page.getByText(text, { exact: true });
}

/** Opens a config's page and waits until the editor shows its text. */
async function openConfig(page: Page, config: ConfigRecord): Promise<void> {
  await page.goto(`/configs/${config.id}`);
  await expect(h1(page)).toHaveText(config.label);
  await expectEditorText(page, config.yaml);
}

/** The server's marker for an issue, expected exactly at the issue's range in `text`. */
function expectedMarker(text: string, issue: Issue) {
  const end = positionAfter(text, issue.line, issue.column, issue.length);
  return {
    owner: SERVER_OWNER,
    severity: issue.severity === 'warning' ? MarkerSeverity.Warning : MarkerSeverity.Error,
    startLineNumber: issue.line,
    startColumn: issue.column,
    endLineNumber: end.line,
    endColumn: end.column,
  };
}

function byPosition<T extends { startLineNumber: number; startColumn: number; severity: number }>(
  markers: T[],
): T[] {
  return [...markers].sort(
    (a, b) =>
      a.startLineNumber - b.startLineNumber ||
      a.startColumn - b.startColumn ||
      b.severity - a.severity,
  );
}

function range(marker: MarkerView) {
  return {
    owner: marker.owner,
    severity: marker.severity,
    startLineNumber: marker.startLineNumber,
    startColumn: marker.startColumn,
    endLineNumber: marker.endLineNumber,
    endColumn: marker.endColumn,
  };
}

test.beforeEach(async ({ page, seed }) => {
  await connectAs(page, seed.keys.configsAdmin);
});

test('open the live config, add an app by typing, save with a summary: a new draft holds it', async ({
  page,
  seed,
}) => {
  const api = ConfigApi.of(seed);
  const live = await api.live();
  const suffix = uniqueSuffix();
  const app = { id: `shop-${suffix}`, name: `Shop ${suffix}`, platform: 'web' };
  const summary = `Add the shop ${suffix}`;

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Configs' })
    .click();
  await page.getByRole('link', { name: 'Open the live config' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/configs/live');
  await expect(h1(page)).toHaveText(live.label);
  await expectEditorText(page, live.yaml);

  const text = withApp(live.yaml, app);
  await typeIntoEditor(page, text);
  await saveDraft(page, summary);

  await expect(page).toHaveURL(DRAFT_URL);
  await expect(notice(page, `Saved as a new draft from ${live.label}.`)).toBeVisible();
  await expect(h1(page)).toHaveText(summary);
  await expect(page.getByRole('link', { name: live.label, exact: true })).toBeVisible();

  // The service holds a new draft from the live config, with the app; the live config is
  // as it was.
  const saved = await api.get(configIdOf(page));
  expect(saved).toMatchObject({ kind: 'draft', base_config_id: live.id, label: summary });
  expect(appIn(saved.yaml, app.id)).toEqual(app);
  expect((await api.live()).yaml).toBe(live.yaml);

  // The editor shows the saved YAML, with the app; so does the page after a reload.
  await expectEditorText(page, saved.yaml);
  expect(appIds(await currentEditorState(page).then((s) => s.value))).toContain(app.id);
  await page.reload();
  await expect(h1(page)).toHaveText(summary);
  await expectEditorText(page, saved.yaml);
});

test('platform: desktop is underlined exactly under desktop, listed, and chosen from the list', async ({
  page,
  seed,
}) => {
  const api = ConfigApi.of(seed);
  const suffix = uniqueSuffix();
  const appId = `kiosk-${suffix}`;
  const draft = await api.createDraft(`Kiosk ${suffix}`, [
    { id: appId, name: 'Kiosk', platform: 'web' },
  ]);
  await openConfig(page, draft);
  await expect(problemsRegion(page)).toContainText('No problems');

  const text = editYaml(draft.yaml, (document) =>
    document.setIn(['apps', appIndex(document, appId), 'platform'], 'desktop'),
  );
  await typeIntoEditor(page, text);
  await saveDraft(page, 'Move the kiosk to the desktop');
  await expect(notice(page, 'Saved: revision 2.')).toBeVisible();
  expect(configIdOf(page)).toBe(draft.id);

  const saved = await api.get(draft.id);
  expect(saved.revision).toBe(2);
  const [issue, ...others] = saved.validation.issues;
  expect(others).toEqual([]);
  expect(issue).toMatchObject({ code: 'schema.enum', path: expect.stringMatching(/\/platform$/) });

  // The marker sits exactly under `desktop` in the text the editor shows.
  await expectEditorText(page, saved.yaml);
  const value = (await currentEditorState(page)).value;
  const at = positionOf(value, `platform: desktop`, 'desktop');
  const expected = {
    owner: SERVER_OWNER,
    severity: MarkerSeverity.Error,
    startLineNumber: at.line,
    startColumn: at.column,
    endLineNumber: at.line,
    endColumn: at.column + 'desktop'.length,
  };
  await expect
    .poll(async () => (await markersOf(page, SERVER_OWNER)).map(range))
    .toEqual([expected]);
  const [marker] = await markersOf(page, SERVER_OWNER);
  expect(marker?.text).toBe('desktop');
  expect(marker?.message).toContain(issue?.message ?? '');
  // One problem, one marker: monaco-yaml's own check does not restate the server's.
  await expect.poll(async () => (await markersOn(page, 'desktop')).length).toBe(1);

  // The squiggle is drawn, on desktop's line and under the word.
  const squiggle = editorRoot(page).locator('.squiggly-error');
  await expect(squiggle).toHaveCount(1);
  await expect(squiggle).toBeVisible();
  const boxes = await squiggleAndWord(page, 'platform: desktop', 'desktop');
  expect(boxes.word, 'the word desktop is drawn').not.toBeNull();
  expect(boxes.squiggle, 'the squiggle is drawn').not.toBeNull();
  if (boxes.word && boxes.squiggle) {
    expect(Math.abs(boxes.squiggle.left - boxes.word.left)).toBeLessThan(2);
    expect(Math.abs(boxes.squiggle.right - boxes.word.right)).toBeLessThan(2);
    expect(boxes.squiggle.top).toBeGreaterThanOrEqual(boxes.word.top - boxes.word.height);
    expect(boxes.squiggle.bottom).toBeLessThanOrEqual(boxes.word.bottom + boxes.word.height);
  }

  // The problems panel lists it; choosing it selects the word.
  await expect(
    problemsRegion(page).getByRole('heading', { level: 2, name: 'Problems' }),
  ).toBeVisible();
  await expect(problemsRegion(page)).toContainText(countsText(1, 0));
  const entry = problemButton(page, issue as Issue);
  await expect(entry).toBeVisible();
  await clickAwayFromWord(page);
  await entry.click();
  await expect
    .poll(async () => (await editorState(page))?.selection)
    .toEqual({
      startLineNumber: at.line,
      startColumn: at.column,
      endLineNumber: at.line,
      endColumn: at.column + 'desktop'.length,
    });
  expect((await currentEditorState(page)).selectedText).toBe('desktop');
  await saveScreenshot(page, 'editor-desktop-marker');

  // A fresh, unsaved edit elsewhere gets monaco-yaml's instant check, and only it, now that
  // monaco-yaml has checked the whole text again.
  await clickIntoEditor(page);
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.insertText('\n');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.insertText('colour: blue');
  await page.keyboard.press('Escape');
  await expect
    .poll(async () => (await markersOf(page, 'yaml')).map((m) => [m.startLineNumber, m.text]))
    .toEqual([[1, 'colour']]);
  // monaco-yaml's markers are exactly that one: none restates the server's on desktop.
  expect(await markersOf(page, SERVER_OWNER)).toHaveLength(1);
});

/** Every marker, of any owner, that covers part of the first `word` in the editor. */
async function markersOn(page: Page, word: string): Promise<MarkerView[]> {
  const { value, markers } = await currentEditorState(page);
  const at = positionOf(value, word, word);
  const end = at.column + word.length;
  return markers.filter(
    (marker) =>
      marker.startLineNumber <= at.line &&
      at.line <= marker.endLineNumber &&
      (marker.startLineNumber < at.line || marker.startColumn < end) &&
      (marker.endLineNumber > at.line || marker.endColumn > at.column),
  );
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  height: number;
}

/**
 * Where the editor draws its one error squiggle, and where `word` is drawn on the view line
 * holding `lineText` (measured on the text itself, whatever spans Monaco splits it into).
 */
async function squiggleAndWord(
  page: Page,
  lineText: string,
  word: string,
): Promise<{ squiggle: Box | null; word: Box | null }> {
  return editorRoot(page).evaluate(
    (root, [lineText, word]) => {
      const box = (rect: DOMRect): Box => ({
        left: rect.left,
        right: rect.right,
        top: rect.top,
        bottom: rect.bottom,
        height: rect.height,
      });
      const squiggle = root.querySelector('.squiggly-error');
      const normal = (text: string) => text.replace(/\u00a0/g, ' ');
      const line = [...root.querySelectorAll('.view-line')].find((element) =>
        normal(element.textContent ?? '').includes(lineText),
      );
      let wordBox: Box | null = null;
      if (line) {
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        const texts: Text[] = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
        const whole = normal(texts.map((node) => node.data).join(''));
        const start = whole.indexOf(word, whole.indexOf(lineText));
        // Find the text nodes holding the word's first and last characters.
        const at = (offset: number): [Text, number] => {
          let rest = offset;
          for (const node of texts) {
            if (rest <= node.data.length) return [node, rest];
            rest -= node.data.length;
          }
          throw new Error('offset past the line');
        };
        const range = document.createRange();
        range.setStart(...at(start));
        range.setEnd(...at(start + word.length));
        wordBox = box(range.getBoundingClientRect());
      }
      return {
        squiggle: squiggle ? box(squiggle.getBoundingClientRect()) : null,
        word: wordBox,
      };
    },
    [lineText, word] as const,
  );
}

/** Puts the cursor somewhere else first, so that choosing a problem visibly moves it. */
async function clickAwayFromWord(page: Page): Promise<void> {
  await editorRoot(page).locator('.view-line').first().click();
  await expect.poll(async () => (await editorState(page))?.selection?.startLineNumber).toBe(1);
}

test('an unknown key warns, a marker after an emoji counts UTF-16, an issue may span lines', async ({
  page,
  seed,
}) => {
  const api = ConfigApi.of(seed);
  const suffix = uniqueSuffix();
  const draft = await api.createDraft(`Rocket ${suffix}`, [
    { id: `base-${suffix}`, name: 'Base', platform: 'web' },
  ]);
  await openConfig(page, draft);

  const rocketId = `rocket-${suffix}`;
  const text = withApp(draft.yaml, {
    id: rocketId,
    name: '🚀 Rocket',
    platform: 'ios',
    owner: 'ada',
    settings: { 'launch🚀': null, sizes: [1, 2] },
  });
  await typeIntoEditor(page, text);
  // Saved from the keyboard this time: Ctrl/Cmd+S in the editor.
  await summaryField(page).fill('Add the rocket');
  await clickIntoEditor(page);
  await page.keyboard.press('ControlOrMeta+S');
  await expect(notice(page, 'Saved: revision 2.')).toBeVisible();

  const saved = await api.get(draft.id);
  await expectEditorText(page, saved.yaml);
  const value = (await currentEditorState(page)).value;
  const issues = saved.validation.issues;
  const byCode = (code: string, pathEnd: string) => {
    const found = issues.find((issue) => issue.code === code && issue.path.endsWith(pathEnd));
    expect(found, `an issue ${code} at …${pathEnd} in ${JSON.stringify(issues)}`).toBeTruthy();
    return found as Issue;
  };
  const unknownKey = byCode('schema.unknown_key', '/owner');
  const emojiKey = byCode('schema.pattern', '/settings/launch🚀');
  const afterEmoji = byCode('schema.type', '/settings/launch🚀');
  const acrossLines = byCode('schema.type', '/settings/sizes');

  // One server marker per issue, at its position and with its severity.
  await expect
    .poll(async () => byPosition((await markersOf(page, SERVER_OWNER)).map(range)))
    .toEqual(byPosition(issues.map((issue) => expectedMarker(value, issue))));
  const markers = await markersOf(page, SERVER_OWNER);
  const markerOf = (issue: Issue) =>
    markers.find(
      (marker) => marker.startLineNumber === issue.line && marker.startColumn === issue.column,
    );

  // The unknown key: a warning on the key.
  const owner = positionOf(value, 'owner: ada', 'owner');
  expect(markerOf(unknownKey)).toMatchObject({
    severity: MarkerSeverity.Warning,
    startLineNumber: owner.line,
    startColumn: owner.column,
    endColumn: owner.column + 'owner'.length,
    text: 'owner',
  });
  await expect(editorRoot(page).locator('.squiggly-warning').first()).toBeVisible();

  // After the emoji: the key counts 🚀 as 2 columns, and the value starts after it.
  const emojiLine = value.split('\n')[afterEmoji.line - 1] ?? '';
  const nullColumn = emojiLine.indexOf('null') + 1;
  expect(nullColumn, 'UTF-16 and code point columns differ on this line').not.toBe(
    [...emojiLine.slice(0, nullColumn - 1)].length + 1,
  );
  expect(markerOf(afterEmoji)).toMatchObject({
    severity: MarkerSeverity.Error,
    startColumn: nullColumn,
    endColumn: nullColumn + 'null'.length,
    text: 'null',
  });
  expect(markerOf(emojiKey)).toMatchObject({ severity: MarkerSeverity.Error, text: 'launch🚀' });

  // Across a line end: the marker spans the lines of the list.
  const spanning = markerOf(acrossLines);
  expect(spanning?.endLineNumber).toBeGreaterThan(spanning?.startLineNumber ?? Infinity);
  expect(spanning?.text.trim()).toMatch(/^- 1\n\s*- 2$/);

  // The problems panel: counts and every issue in order; choosing the spanning one selects
  // its lines.
  const errors = issues.filter((issue) => issue.severity !== 'warning').length;
  await expect(problemsRegion(page)).toContainText(countsText(errors, issues.length - errors));
  await expect(problemsRegion(page).getByRole('button', { name: /^\d+:\d+ / })).toHaveText(
    issues.map((issue) => `${issue.line}:${issue.column} ${issue.message}`),
  );
  await problemButton(page, acrossLines).click();
  await expect.poll(async () => (await editorState(page))?.selectedText).toBe(spanning?.text);
  await saveScreenshot(page, 'editor-warning-emoji-multiline');
});

test('a syntax error is marked at once and not saved; fixed, saved, published, rolled back', async ({
  page,
  seed,
}) => {
  test.slow();
  const api = ConfigApi.of(seed);
  const live = await api.live();
  const suffix = uniqueSuffix();
  const app = { id: `beta-${suffix}`, name: 'Beta', platform: 'android' };
  const summary = `Add beta ${suffix}`;
  const versionLabel = `Release ${suffix}`;

  const edits: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/v1/config/edit')) {
      edits.push(request.url());
    }
  });

  await page.goto('/configs/live');
  await expect(h1(page)).toHaveText(live.label);
  await expectEditorText(page, live.yaml);

  // `name: Beta: broken` is not YAML (a mapping inside a plain scalar).
  const good = withApp(live.yaml, app);
  const broken = good.replace('name: Beta', 'name: Beta: broken');
  await test.step('the syntax error is marked at once, without saving', async () => {
    await typeIntoEditor(page, broken);
    const line = positionOf(broken, 'name: Beta: broken', 'name').line;
    await expect
      .poll(async () =>
        ((await editorState(page))?.markers ?? []).some(
          (marker) =>
            marker.severity === MarkerSeverity.Error &&
            marker.startLineNumber <= line &&
            marker.endLineNumber >= line,
        ),
      )
      .toBe(true);
    await expect(editorRoot(page).locator('.squiggly-error').first()).toBeVisible();
    // The Problems panel lists it too, at its line, and says why it cannot be saved.
    const problems = problemsRegion(page);
    await expect(problems.getByText(/^\d+ syntax errors?$/)).toBeVisible();
    await expect(problems).toContainText('Fix the syntax errors before saving.');
    const item = problems
      .getByRole('listitem')
      .filter({ hasText: 'Syntax error' })
      .getByRole('button', { name: new RegExp(`^${line}:\\d+ `) });
    await expect(item.first()).toBeVisible();
    // Chosen, it puts the cursor on that line.
    await item.first().click();
    await expect.poll(async () => (await editorState(page))?.selection?.startLineNumber).toBe(line);
  });

  await test.step('Save is refused with a message, and nothing is posted', async () => {
    await saveDraft(page, summary);
    await expect(
      page.getByRole('alert').filter({ hasText: 'Fix the syntax errors before saving.' }),
    ).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === '/configs/live');
    expect(edits).toEqual([]);
    expect((await api.live()).id).toBe(live.id);
  });

  let draftLabel = summary;
  await test.step('fixed, the draft saves', async () => {
    await typeIntoEditor(page, good);
    await expect
      .poll(async () =>
        ((await editorState(page))?.markers ?? []).filter(
          (marker) => marker.severity === MarkerSeverity.Error,
        ),
      )
      .toEqual([]);
    await saveButton(page).click();
    await expect(page).toHaveURL(DRAFT_URL);
    await expect(notice(page, `Saved as a new draft from ${live.label}.`)).toBeVisible();
    await expect(problemsRegion(page)).toContainText('No problems');
    draftLabel = (await api.get(configIdOf(page))).label;
    expect(draftLabel).toBe(summary);
  });

  await test.step('published, it is the live version in the config list', async () => {
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Publish ${draftLabel}?` });
    await expect(dialog).toBeVisible();
    // The confirmation shows the diff against the base: the new app is in it.
    await expect(dialog.locator('.monaco-diff-editor')).toContainText(app.id);
    await dialog.getByRole('textbox', { name: 'Version label' }).fill(versionLabel);
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(notice(page, 'Published. This version is now live.')).toBeVisible();
    await expect(h1(page)).toHaveText(versionLabel);
    const published = await api.live();
    expect(published).toMatchObject({ label: versionLabel, kind: 'published', live: true });
    expect(configIdOf(page)).toBe(published.id);
    expect(appIn(published.yaml, app.id)).toEqual(app);

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Configs' })
      .click();
    await expect(page).toHaveURL(CONFIGS_PATH);
    await expect(await liveCell(page, versionLabel)).toHaveText('Live');
    await expect(await liveCell(page, live.label)).not.toHaveText('Live');
  });

  await test.step('rolled back, the previous version is live again', async () => {
    await page.getByRole('button', { name: `Make ${live.label} live`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Make ${live.label} live?` });
    await expect(dialog).toBeVisible();
    // The changes against the live config: the app that goes away is in the diff.
    await expect(dialog.locator('.monaco-diff-editor')).toContainText(app.id);
    await saveScreenshot(page, 'configs-make-live-dialog');
    await dialog.getByRole('button', { name: 'Make live', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(await liveCell(page, live.label)).toHaveText('Live');
    await expect(await liveCell(page, versionLabel)).not.toHaveText('Live');
    await expect(
      page.getByRole('button', { name: `Make ${versionLabel} live`, exact: true }),
    ).toBeVisible();
    expect((await api.live()).id).toBe(live.id);
  });
});

/** The Live cell of the config list's row whose label link is `label`. */
async function liveCell(page: Page, label: string): Promise<Locator> {
  const table = page.getByRole('table', { name: 'Configs' });
  await expect(table).toBeVisible();
  const headers = await table.getByRole('columnheader').allInnerTexts();
  const index = headers.findIndex((header) => header.trim() === 'Live');
  expect(index, `a column "Live" in ${JSON.stringify(headers)}`).toBeGreaterThanOrEqual(0);
  return table
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: label, exact: true }) })
    .locator('th, td')
    .nth(index);
}

// Drafts merge concurrent edits (editor-merge.spec.ts); the live config's page names the
// config it shows (If-Match), so another version going live meanwhile answers 412.
test.describe('another version goes live while a person edits the live config', () => {
  async function editWhileAnotherGoesLive(page: Page, seed: Parameters<typeof ConfigApi.of>[0]) {
    const api = ConfigApi.of(seed);
    const suffix = uniqueSuffix();
    const live = await api.live();
    await page.goto('/configs/live');
    await expect(h1(page)).toHaveText(live.label);
    await expectEditorText(page, live.yaml);

    // Someone else publishes a version with an app of theirs.
    const first = { id: `first-${suffix}`, name: 'First', platform: 'web' };
    const draft = await api.createDraft(`Newer ${suffix}`, [first]);
    const newer = await api.publish(draft.id, `Newer ${suffix}`);

    // The person, still on the version they opened, saves another: the 412 dialog.
    const second = { id: `second-${suffix}`, name: 'Second', platform: 'ios' };
    await typeIntoEditor(page, withApp(live.yaml, second));
    await saveDraft(page, 'Add the second app');
    const dialog = page.getByRole('dialog', { name: 'This config has changed' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeVisible();
    return { api, newer, first, second, dialog };
  }

  test('"Reload the newer version" shows the version now live', async ({
    page,
    seed,
    consoleErrors,
  }) => {
    consoleErrors.allowFailedRequest(412, '/api/v1/config/edit');
    const { newer, first, second, dialog } = await editWhileAnotherGoesLive(page, seed);

    await dialog.getByRole('button', { name: 'Reload the newer version' }).click();
    await expect(dialog).toBeHidden();
    await expect(h1(page)).toHaveText(newer.label);
    await expectEditorText(page, newer.yaml);
    const ids = appIds(await currentEditorState(page).then((s) => s.value));
    expect(ids).toContain(first.id);
    expect(ids).not.toContain(second.id);
  });

  test('"Re-apply my edit" keeps both changes and saves them as a new draft', async ({
    page,
    seed,
    consoleErrors,
  }) => {
    consoleErrors.allowFailedRequest(412, '/api/v1/config/edit');
    const { api, newer, first, second, dialog } = await editWhileAnotherGoesLive(page, seed);

    await dialog.getByRole('button', { name: 'Re-apply my edit' }).click();
    await expect(dialog).toBeHidden();
    // The edit now sits on top of the newer version, to be reviewed and saved.
    await expect
      .poll(async () => appIds((await editorState(page))?.value ?? ''))
      .toEqual(expect.arrayContaining([first.id, second.id]));
    await saveDraft(page, 'Add the second app');
    await expect(notice(page, `Saved as a new draft from ${newer.label}.`)).toBeVisible();
    await expect(page).toHaveURL(DRAFT_URL);
    const saved = await api.get(configIdOf(page));
    expect(appIds(saved.yaml)).toEqual(expect.arrayContaining([first.id, second.id]));
    await expectEditorText(page, saved.yaml);
  });
});

test('leaving with unsaved edits asks first', async ({ page, seed }) => {
  const api = ConfigApi.of(seed);
  const suffix = uniqueSuffix();
  const draft = await api.createDraft(`Unsaved ${suffix}`, [
    { id: `unsaved-${suffix}`, name: 'Unsaved', platform: 'web' },
  ]);
  await openConfig(page, draft);
  const edited = withApp(draft.yaml, { id: `pending-${suffix}`, name: 'Pending', platform: 'web' });
  await typeIntoEditor(page, edited);

  const configsLink = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Configs' });
  const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });

  // Stay keeps the page and the edit.
  await configsLink.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL((url) => url.pathname === `/configs/${draft.id}`);
  await expectEditorText(page, edited);

  // Leave goes, and the edit is not saved.
  await configsLink.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(CONFIGS_PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Configs' })).toBeVisible();
  expect((await api.get(draft.id)).revision).toBe(1);

  // Closing the tab with unsaved edits: the browser's own prompt.
  await openConfig(page, draft);
  await typeIntoEditor(page, edited);
  const prompt = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const beforeUnload = await prompt;
  expect(beforeUnload.type()).toBe('beforeunload');
  await beforeUnload.accept();
});

test('without edits, leaving does not ask', async ({ page, seed }) => {
  const api = ConfigApi.of(seed);
  const suffix = uniqueSuffix();
  const draft = await api.createDraft(`Clean ${suffix}`, [
    { id: `clean-${suffix}`, name: 'Clean', platform: 'web' },
  ]);
  await openConfig(page, draft);
  await expect(editorTextbox(page)).toBeAttached();
  await expect(summaryField(page)).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Configs' })
    .click();
  await expect(page).toHaveURL(CONFIGS_PATH);
  await expect(page.getByRole('dialog', { name: 'Leave without saving?' })).toHaveCount(0);
});
