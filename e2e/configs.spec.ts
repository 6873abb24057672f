/**
 * The config list and the editor page as pages (docs/console.md, "Configs and the
 * editor"): Monaco loads only on the editor route, and both pages have no axe-core
 * violations in the light and the dark theme.
 */
import type { Page } from '@playwright/test';
import { connectAs, expect, expectNoAxeViolations, saveScreenshot, test } from './fixtures';
import {
  ConfigApi,
  currentEditorState,
  editorRoot,
  expectEditorText,
  markersOf,
  problemsRegion,
  SERVER_OWNER,
  uniqueSuffix,
} from './editor';

// Each journey loads Monaco once or twice (two people: two browsers): more than the default
// 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

/**
 * A request for Monaco's code, as Vite names it in dist/assets: its chunk and CSS
 * (monaco-*.js, monaco-*.css), its icon font (codicon-*.ttf), its workers
 * (editor.worker-*.js, yaml.worker-*.js).
 */
const MONACO_ASSET = /monaco|codicon|editor\.worker|yaml\.worker/i;
/** Text found in Monaco's own code and nowhere else in the console (its ARIA container). */
const MONACO_CODE = 'monaco-aria-container';

interface Loaded {
  url: string;
  /** The body of a script or stylesheet from /assets/, read as it arrives. */
  body: Promise<string>;
}

/** Every script, stylesheet and worker the page requests, with the bodies of our assets. */
function recordAssets(page: Page): Loaded[] {
  const loaded: Loaded[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (!['script', 'stylesheet', 'font', 'other', 'fetch'].includes(type)) return;
    const url = response.url();
    const isAsset = new URL(url).pathname.startsWith('/assets/');
    loaded.push({ url, body: isAsset ? response.text().catch(() => '') : Promise.resolve('') });
  });
  return loaded;
}

async function monacoOnPage(page: Page): Promise<boolean> {
  return page.evaluate(() => '__provisioningMonaco' in window);
}

test('the pages without the editor do not load Monaco; the editor page does', async ({
  page,
  seed,
}) => {
  const loaded = recordAssets(page);
  await connectAs(page, seed.keys.configsAdmin);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Configs' }).click();
  await expect(page.getByRole('table', { name: 'Configs' })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('table', { name: 'Configs' })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);

  const urls = loaded.map((entry) => entry.url);
  expect(urls.filter((url) => new URL(url).pathname.startsWith('/assets/'))).not.toEqual([]);
  expect(urls.filter((url) => MONACO_ASSET.test(new URL(url).pathname))).toEqual([]);
  for (const entry of loaded) {
    expect((await entry.body).includes(MONACO_CODE), `${entry.url} holds Monaco's code`).toBe(
      false,
    );
  }
  expect(await monacoOnPage(page)).toBe(false);

  // The editor route loads it (so the checks above can see it when it is there).
  await page.getByRole('link', { name: 'Open the live config' }).click();
  await currentEditorState(page);
  expect(await monacoOnPage(page)).toBe(true);
  const editorAssets = loaded
    .map((entry) => new URL(entry.url).pathname)
    .filter((path) => MONACO_ASSET.test(path));
  expect(editorAssets.length, 'Monaco assets requested on the editor page').toBeGreaterThan(0);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the config list and the editor page have no axe violations', async ({ page, seed }) => {
      const api = ConfigApi.of(seed);
      const suffix = uniqueSuffix();
      // A draft with an error and a warning, so the page shows markers and problems, and
      // ten lines or more: axe passes over a one-digit line number as too short to judge.
      const draft = await api.createDraft(`Axe ${suffix}`, [
        { id: `axe-${suffix}`, name: 'Axe', platform: 'desktop', colour: 'red' },
        { id: `axe-ok-${suffix}`, name: 'Axe too', platform: 'android' },
      ]);
      await connectAs(page, seed.keys.configsAdmin);

      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Configs' })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: 'Configs' })).toBeVisible();
      await expect(
        page.getByRole('table', { name: 'Configs' }).getByRole('link', { name: draft.label }),
      ).toBeVisible();
      await expectNoAxeViolations(page);
      await saveScreenshot(page, `configs-list-${colorScheme}`);

      await page.getByRole('link', { name: draft.label, exact: true }).click();
      await expect(page).toHaveURL((url) => url.pathname === `/configs/${draft.id}`);
      await expect(page.getByRole('heading', { level: 1, name: draft.label })).toBeVisible();
      await expectEditorText(page, draft.yaml);
      await expect.poll(async () => (await markersOf(page, SERVER_OWNER)).length).toBe(2);
      await expect(problemsRegion(page)).toContainText('1 error, 1 warning');
      await expect(editorRoot(page).locator('.squiggly-error')).toHaveCount(1);
      // The text ends with a line end: Monaco dims the number of the empty last line. Scroll
      // (without moving the cursor) so that line is drawn and axe checks its contrast too.
      expect(draft.yaml.endsWith('\n')).toBe(true);
      await editorRoot(page).hover();
      await page.mouse.wheel(0, 10_000);
      await expect(editorRoot(page).locator('.line-numbers.dimmed-line-number')).toHaveText(
        /^\d{2,}$/,
      );
      await expectNoAxeViolations(page);
      await saveScreenshot(page, `editor-${colorScheme}`);
    });
  });
}

test('a config opened again is revalidated: the service answers 304 and the page shows it', async ({
  page,
  seed,
}) => {
  const api = ConfigApi.of(seed);
  const draft = await api.createDraft(`Revalidated ${uniqueSuffix()}`, [
    { id: `cached-${uniqueSuffix()}`, name: 'Cached', platform: 'ios' },
  ]);
  const received = await statusesOnTheWire(page, `/api/v1/configs/${draft.id}`);
  await connectAs(page, seed.keys.configsAdmin);
  await page.goto(`/configs/${draft.id}`);
  await expectEditorText(page, draft.yaml);
  await expect.poll(received).toEqual([{ status: 200, ifNoneMatch: undefined }]);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: draft.label })).toBeVisible();
  await expectEditorText(page, draft.yaml);
  await expect
    .poll(() => received().slice(1))
    .toEqual([
      {
        status: 304,
        // The record's ETag: its id and revision, and a stamp of the rest of the record.
        ifNoneMatch: expect.stringMatching(
          new RegExp(`^"${draft.id}:${draft.revision}\\.[0-9a-z]+"$`),
        ),
      },
    ]);
});

/**
 * The status each request for `path` got from the service, in order, as Chromium received
 * it: the page (and Playwright's response) sees a 304 as the 200 it revalidated from the
 * browser's cache. Read from the DevTools protocol's raw request and response events.
 */
async function statusesOnTheWire(
  page: Page,
  path: string,
): Promise<() => { status: number; ifNoneMatch: string | undefined }[]> {
  const requests = new Map<string, { path?: string; status?: number; ifNoneMatch?: string }>();
  const of = (id: string) => {
    let request = requests.get(id);
    if (!request) requests.set(id, (request = {}));
    return request;
  };
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Network.requestWillBeSent', (event) => {
    of(event.requestId).path = new URL(event.request.url).pathname;
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (event) => {
    const name = Object.keys(event.headers).find((key) => key.toLowerCase() === 'if-none-match');
    of(event.requestId).ifNoneMatch = name === undefined ? undefined : event.headers[name];
  });
  cdp.on('Network.responseReceivedExtraInfo', (event) => {
    of(event.requestId).status = event.statusCode;
  });
  await cdp.send('Network.enable');
  return () =>
    [...requests.values()]
      .filter((request) => request.path === path && request.status !== undefined)
      .map((request) => ({ status: request.status ?? 0, ifNoneMatch: request.ifNoneMatch }));
}
