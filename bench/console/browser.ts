/**
 * The console in headless Chromium (Debian's, as the e2e tests use) on the real service:
 * what the editor route fetches in all (gzip, from the network log of a fresh browser
 * context), and Save -> the server's markers visible, on a 1,000-app config (median of
 * several saves, each of which adds one server issue).
 */
import { chromium, type Page } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { largeConfigText } from '../../src/configs/testing/large-config';
import { judged, median, MIB, printed, round, type Figure } from '../lib/figures';
import { benchDataDir, seedAccounts, type SeededAccount } from '../lib/seed';
import { startService } from '../lib/service-process';

const SAVES = 7;
const EDITOR_WORKERS = 3;
const SERVER_OWNER = 'provisioning-server';
/** How long a person pauses between typing and pressing Save (the worker diffs meanwhile). */
const PAUSE_MS = 700;

interface MonacoOnPage {
  editor: {
    getModels(): {
      getValue(): string;
      getPositionAt(offset: number): { lineNumber: number; column: number };
      pushEditOperations(
        before: null,
        edits: { range: object; text: string }[],
        after: () => null,
      ): void;
    }[];
    getModelMarkers(filter: { owner: string }): unknown[];
  };
  Range: new (a: number, b: number, c: number, d: number) => object;
}

/** Worker scripts and every module they import, statically, as URLs. */
async function workerModules(entries: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const url = queue.pop() as string;
    if (found.has(url)) continue;
    found.add(url);
    const code = await (await fetch(url)).text();
    for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g)) {
      queue.push(new URL(match[1] as string, url).href);
    }
  }
  return [...found];
}

async function makeDraft(url: string, account: SeededAccount): Promise<string> {
  const response = await fetch(`${url}/api/v1/config/edit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      summary: 'Bench draft',
      operations: [{ update_app: [{ id: 'app-0', name: 'Bench' }] }],
    }),
  });
  const result = (await response.json()) as { id?: string };
  if (!response.ok || !result.id) throw new Error(`the draft was not made: ${response.status}`);
  return result.id;
}

async function connect(page: Page, url: string, key: string): Promise<void> {
  await page.goto(`${url}/settings`);
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByLabel('Remember on this device').setChecked(true);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByRole('complementary', { name: 'Who you are' }).waitFor();
}

async function waitForEditor(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      (window as unknown as { __provisioningMonaco?: MonacoOnPage }).__provisioningMonaco?.editor
        .getModels()
        .some((model) => model.getValue().length > 1000) ?? false,
    undefined,
    { timeout: 60_000 },
  );
}

/** Gives app `app` an unknown platform (one new server issue), as typing would. */
async function breakPlatform(page: Page, app: number): Promise<void> {
  await page.evaluate((index) => {
    const monaco = (window as unknown as { __provisioningMonaco: MonacoOnPage })
      .__provisioningMonaco;
    const model = monaco.editor.getModels().find((each) => each.getValue().length > 1000);
    if (!model) throw new Error('no model');
    const text = model.getValue();
    const at = text.indexOf(`- id: app-${index}\n`);
    const platform = text.indexOf('platform: ', at) + 'platform: '.length;
    const end = text.indexOf('\n', platform);
    const from = model.getPositionAt(platform);
    const to = model.getPositionAt(end);
    const range = new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column);
    model.pushEditOperations(null, [{ range, text: 'desktop' }], () => null);
  }, app);
}

async function timeSave(page: Page, expectedMarkers: number): Promise<number> {
  await page.getByRole('textbox', { name: 'Summary' }).fill('Bench save');
  await page.waitForTimeout(PAUSE_MS);
  await page.evaluate(() => {
    (window as unknown as { benchStart: number }).benchStart = performance.now();
  });
  await page.getByRole('button', { name: 'Save draft' }).click();
  const handle = await page.waitForFunction(
    ({ owner, expected }) => {
      const monaco = (window as unknown as { __provisioningMonaco: MonacoOnPage })
        .__provisioningMonaco;
      if (monaco.editor.getModelMarkers({ owner }).length < expected) return false;
      return performance.now() - (window as unknown as { benchStart: number }).benchStart;
    },
    { owner: SERVER_OWNER, expected: expectedMarkers },
    { polling: 'raf', timeout: 30_000 },
  );
  return (await handle.jsonValue()) as number;
}

export async function benchBrowser(): Promise<Figure[]> {
  const dataDir = benchDataDir();
  const [account] = await seedAccounts(dataDir, [largeConfigText(1_000)]);
  if (!account) throw new Error('no account was seeded');
  const service = await startService(dataDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  try {
    const draftId = await makeDraft(service.url, account);
    const setup = await browser.newContext();
    await connect(await setup.newPage(), service.url, account.adminKey);
    const storageState = await setup.storageState();
    await setup.close();

    // A fresh context (empty cache) with the key remembered: the editor route from scratch.
    const context = await browser.newContext({ storageState });
    const bodies: Promise<number>[] = [];
    const files: string[] = [];
    context.on('response', (response) => {
      files.push(new URL(response.url()).pathname);
      bodies.push(
        response.body().then(
          (body) => gzipSync(body, { level: 9 }).length,
          () => 0,
        ),
      );
    });
    const page = await context.newPage();
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    await page.goto(`${service.url}/configs/${draftId}`);
    await waitForEditor(page);
    await page.waitForLoadState('networkidle');
    // Playwright's log leaves out what dedicated workers fetch: their scripts and the
    // modules they import are added from the same server.
    // The editor's workers (Monaco's, YAML's, the operations worker) start after it shows.
    for (let waited = 0; workers.length < EDITOR_WORKERS && waited < 30_000; waited += 100) {
      await page.waitForTimeout(100);
    }
    if (workers.length < EDITOR_WORKERS)
      throw new Error(`the editor started ${workers.length} workers`);
    await page.waitForLoadState('networkidle');
    const seen = new Set(files);
    for (const url of await workerModules(workers)) {
      const path = new URL(url).pathname;
      if (seen.has(path)) continue;
      seen.add(path);
      files.push(path);
      const body = Buffer.from(await (await fetch(url)).arrayBuffer());
      bodies.push(Promise.resolve(gzipSync(body, { level: 9 }).length));
    }
    const fetched = (await Promise.all(bodies)).reduce((sum, size) => sum + size, 0);

    const initial = await page.evaluate(
      (owner) =>
        (
          window as unknown as { __provisioningMonaco: MonacoOnPage }
        ).__provisioningMonaco.editor.getModelMarkers({ owner }).length,
      SERVER_OWNER,
    );
    const samples: number[] = [];
    for (let save = 0; save < SAVES; save++) {
      await breakPlatform(page, 10 + save * 97);
      samples.push(await timeSave(page, initial + save + 1));
    }
    await context.close();
    return [
      judged('console: editor route fetches in all (gzip)', round(fetched / MIB, 2), 'MiB', {
        max: 1.6,
        text: '≤ 1.6 MiB',
      }),
      printed('console: requests of the editor route', files.length, 'requests'),
      judged('console: Save → markers visible, 1,000 apps (median)', round(median(samples)), 'ms', {
        max: 300,
        text: '≤ 300 ms',
      }),
      printed(
        'console: Save → markers visible, slowest of the saves',
        round(Math.max(...samples)),
        'ms',
      ),
    ];
  } finally {
    await browser.close();
    await service.stop();
  }
}
