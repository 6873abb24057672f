/**
 * What every journey shares: the seeded accounts and keys, a guard that fails a test on any
 * browser console error or page error, a way to sign in with a key as a person would, an
 * axe-core check, and screenshots kept as artifacts.
 */
import { AxeBuilder } from '@axe-core/playwright';
import {
  test as base,
  expect,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { provisioning, SEED_FILE, type CreatedKey, type Seed } from './seed';

export { expect };

export const SCREENSHOT_DIR = join('test-results', 'screenshots');

/**
 * Collects `console.error`s, browser-logged errors (failed loads, CSP violations) and
 * uncaught page errors from every page of the contexts it watches. A test fails on any of
 * them, except the failed requests it declares it provokes (a 401 for a bad key).
 */
export class ConsoleErrors {
  private readonly errors: string[] = [];
  private readonly allowed: { pattern: RegExp; url?: string }[] = [];

  /**
   * Watches every page of `context`. Content-Security-Policy violations are caught twice:
   * Chromium logs most of them, and a page script listens for `securitypolicyviolation`
   * events (report-only and silent ones included) and logs each as an error.
   */
  async watch(context: BrowserContext): Promise<void> {
    await context.addInitScript(REPORT_CSP_VIOLATIONS);
    // A signed-out console learns that it is signed out by asking who it is: that 401 is how
    // every visit without a session starts, not an error.
    this.allowFailedRequest(401, '/api/v1/auth/status');
    context.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      const url = message.location().url;
      const isAllowed = this.allowed.some(
        (rule) => rule.pattern.test(text) && (rule.url === undefined || url.includes(rule.url)),
      );
      if (!isAllowed) this.errors.push(`console error: ${text}${url ? ` (${url})` : ''}`);
    });
    context.on('weberror', (webError) => {
      const error = webError.error();
      this.errors.push(`page error: ${error.name}: ${error.message}`);
    });
  }

  /** The browser logs every 4xx/5xx response as an error; allow the ones a test provokes. */
  allowFailedRequest(status: number, urlPart: string): void {
    this.allowed.push({
      pattern: new RegExp(
        `^Failed to load resource: the server responded with a status of ${status}\\b`,
      ),
      url: urlPart,
    });
  }

  /** Allow another error the test provokes on purpose (e.g. an unreachable server). */
  allow(pattern: RegExp): void {
    this.allowed.push({ pattern });
  }

  get recorded(): readonly string[] {
    return this.errors;
  }
}

/**
 * Runs in every page before its own scripts. The text matches Chromium's own wording
 * ("violates the following Content Security Policy directive"), so one `allow` covers both.
 */
const REPORT_CSP_VIOLATIONS = `window.addEventListener('securitypolicyviolation', (event) => {
  console.error('securitypolicyviolation: ' + (event.blockedURI || 'inline') + ' violates the following Content Security Policy directive: "' + event.violatedDirective + '" (' + event.sourceFile + ':' + event.lineNumber + ')');
}, true);`;

interface Fixtures {
  seed: Seed;
  consoleErrors: ConsoleErrors;
  /** Another browser context (another person, another device), watched for errors too. */
  newContext: () => Promise<BrowserContext>;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  seed: async ({}, use) => {
    await use(JSON.parse(readFileSync(SEED_FILE, 'utf8')) as Seed);
  },

  consoleErrors: [
    async ({ context }, use) => {
      const consoleErrors = new ConsoleErrors();
      await consoleErrors.watch(context);
      await use(consoleErrors);
      expect(consoleErrors.recorded, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],

  newContext: async ({ browser, baseURL, consoleErrors }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await browser.newContext({ baseURL });
      await consoleErrors.watch(context);
      contexts.push(context);
      return context;
    });
    for (const context of contexts) await context.close();
  },
});

/** The whoami panel: the complementary region "Who you are", shown while connected. */
export function whoAmI(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Who you are' });
}

export function apiKeyField(page: Page): Locator {
  return page.getByLabel('API key', { exact: true });
}

/** The sign-in page's "Use an API key" section. */
export function keySignIn(page: Page): Locator {
  return page.getByRole('region', { name: 'Use an API key' });
}

/**
 * Signs in with a key on the sign-in page as a person would ("Use an API key": on this
 * origin the key is exchanged for a session): type the key, press Connect. It leads to the
 * settings, unless the page was sent to sign in from elsewhere. The caller asserts what
 * follows.
 */
export async function connect(page: Page, key: string): Promise<void> {
  if (page.url() === 'about:blank' || new URL(page.url()).pathname !== '/sign-in') {
    await page.goto('/sign-in?return_to=%2Fsettings');
  }
  await keySignIn(page).getByLabel('API key', { exact: true }).fill(key);
  await keySignIn(page).getByRole('button', { name: 'Connect', exact: true }).click();
}

/** Signs in with a key and waits until the whoami panel shows the key's owner. */
export async function connectAs(
  page: Page,
  key: { secret: string; status: Record<string, unknown> | null },
): Promise<void> {
  await connect(page, key.secret);
  await expect(whoAmI(page)).toContainText(String(key.status?.email));
}

/** Where the app sends a person who is not signed in (any more), saying why when it says. */
export async function expectSentToSignIn(page: Page, reason?: string | RegExp): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === '/sign-in');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  if (reason !== undefined) await expect(page.getByText(reason)).toBeVisible();
  await expect(whoAmI(page)).toHaveCount(0);
}

/**
 * Everything this browser context keeps for the page's origin, as text: localStorage,
 * sessionStorage, cookies, IndexedDB and Cache Storage, to prove where a key is (not) kept.
 */
export async function everythingStored(page: Page): Promise<string> {
  const inPage = await page.evaluate(async () => {
    const cached: string[] = [];
    if ('caches' in window) {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          cached.push(request.url, (await (await cache.match(request))?.text()) ?? '');
        }
      }
    }
    return [
      ...Object.entries(localStorage).map(([k, v]) => `local ${k}=${v}`),
      ...Object.entries(sessionStorage).map(([k, v]) => `session ${k}=${v}`),
      ...cached.map((entry) => `cache ${entry}`),
    ];
  });
  const state = await page.context().storageState({ indexedDB: true });
  return [...inPage, JSON.stringify(state)].join('\n');
}

/** Every value in this origin's localStorage and sessionStorage, to prove what is kept. */
export async function storedValues(page: Page): Promise<{ local: string[]; session: string[] }> {
  return page.evaluate(() => ({
    local: Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k) ?? ''}`),
    session: Object.keys(sessionStorage).map((k) => `${k}=${sessionStorage.getItem(k) ?? ''}`),
  }));
}

/**
 * axe-core on the page as it is now (after loading finished): zero violations. `exclude`
 * leaves out third-party widgets whose insides are not ours to fix (say why at the call).
 */
export async function expectNoAxeViolations(
  page: Page,
  { exclude = [] }: { exclude?: string[] } = {},
): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  let builder = new AxeBuilder({ page });
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const violations = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.html}`),
  }));
  expect(violations, `axe-core violations on ${new URL(page.url()).pathname}`).toEqual([]);
}

/** A full-page screenshot kept as an artifact in test-results/screenshots/. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

/** A new key made by the operator's command line, for a test that uses it up. */
export function createKeyWithCli(userId: string, name: string): CreatedKey {
  return provisioning(['keys', 'create', '--user', userId, '--name', name]) as CreatedKey;
}

/** A key as a person might mistype it: one character changed. */
export function mistyped(secret: string): string {
  const last = secret.at(-1) === 'a' ? 'b' : 'a';
  return `${secret.slice(0, -1)}${last}`;
}
