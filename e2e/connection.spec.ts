/**
 * "Use an API key" on the sign-in page (docs/console.md, "Signing in"): a good key exchanged
 * for a session, bad ones said in words, another origin's API with the key in memory, the
 * session across reloads and tabs, and signing out.
 */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import {
  apiKeyField,
  connect,
  connectAs,
  expect,
  expectSentToSignIn,
  keySignIn,
  mistyped,
  storedValues,
  test,
  whoAmI,
} from './fixtures';

interface RunningInstance {
  /** `http://127.0.0.1:port` */
  readonly origin: string;
  stop(): Promise<void>;
}

/** Loopback ports nobody listens on now, all different (each held until all are found). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((resolve) => {
          const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** Another `provisioning serve` on the run's data directory, as an operator starts one. */
function startInstance(port: number, env: Record<string, string>): Promise<RunningInstance> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('playwright.config.ts sets E2E_DATA_DIR');
  const child = spawn(
    process.execPath,
    ['bin/provisioning.js', 'serve', '--port', String(port), '--data-dir', dataDir],
    {
      env: { ...process.env, RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // It prints one JSON line once it listens.
      if (output.includes('{"url"')) resolve({ origin: `http://127.0.0.1:${port}`, stop });
    });
    void exited.then(() => reject(new Error(`serve exited before listening: ${output}`)));
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('the console names the product and, signed out, asks to sign in', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Provisioning Console/);
  await expect(page.getByRole('banner')).toContainText('Provisioning Console');
  await expectSentToSignIn(page);

  await page.goto('/ab-tests');
  await expectSentToSignIn(page);
  expect(new URL(page.url()).searchParams.get('return_to')).toBe('/ab-tests');
});

test('sign in with a good key: exchanged for a session, the key kept nowhere', async ({
  page,
  context,
  seed,
}) => {
  const admin = seed.keys.admin;
  await page.goto('/sign-in?return_to=%2Fsettings');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Use an API key' })).toBeVisible();
  await expect(keySignIn(page).getByLabel('API base URL')).toHaveValue(
    new RegExp(`^(${escapeRegExp(seed.baseURL)})?/api/v1$`),
  );
  await expect(page.getByLabel('Remember on this device')).toHaveCount(0);

  // The key is a password field that can be shown and hidden again.
  const keyField = apiKeyField(page);
  await expect(keyField).toHaveAttribute('type', 'password');
  await keyField.fill(admin.secret);
  await page.getByRole('button', { name: 'Show key' }).click();
  await expect(keyField).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide key' }).click();
  await expect(keyField).toHaveAttribute('type', 'password');

  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(
    page.getByText(`Signed in as ${String(admin.status?.email)}`, { exact: true }),
  ).toBeVisible();
  await expect(whoAmI(page)).toContainText(String(admin.status?.email));
  await expect(whoAmI(page)).toContainText('with an API key');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(page.url()).not.toContain(admin.secret);
  const stored = await storedValues(page);
  expect([...stored.local, ...stored.session].join('\n')).not.toContain(admin.secret);
  const cookies = await context.cookies();
  expect(cookies.map((cookie) => cookie.name)).toEqual(['sid']);
  expect(JSON.stringify(cookies)).not.toContain(admin.secret);

  // The panel is there on every page while signed in.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Configs' })
    .click();
  await expect(page).toHaveURL((url) => url.pathname === '/configs');
  await expect(whoAmI(page)).toContainText(String(admin.status?.email));
});

test('sign in with a key from the keyboard alone', async ({ page, seed }) => {
  await page.goto('/sign-in');
  await apiKeyField(page).focus();
  await page.keyboard.type(seed.keys.editor.secret);
  await page.keyboard.press('Enter');
  await expect(whoAmI(page)).toContainText(String(seed.keys.editor.status?.email));
});

test('a mistyped key fails in words, and nothing is kept', async ({
  page,
  seed,
  consoleErrors,
}) => {
  consoleErrors.allowFailedRequest(401, '/api/v1/auth/key-session');
  const typo = mistyped(seed.keys.admin.secret);

  await connect(page, typo);
  await expect(
    page.getByRole('alert').filter({ hasText: 'That API key is not valid.' }),
  ).toBeVisible();
  await expect(whoAmI(page)).toHaveCount(0);
  const stored = await storedValues(page);
  expect([...stored.local, ...stored.session].join('\n')).not.toContain(typo);

  await page.reload();
  await page.goto('/configs');
  await expectSentToSignIn(page);
});

test('a revoked key fails in words, and nothing is kept', async ({ page, seed, consoleErrors }) => {
  consoleErrors.allowFailedRequest(401, '/api/v1/auth/key-session');
  const revoked = seed.keys.revoked;

  await connect(page, revoked.secret);
  await expect(
    page.getByRole('alert').filter({ hasText: 'That API key was revoked.' }),
  ).toBeVisible();
  await expect(whoAmI(page)).toHaveCount(0);
  const stored = await storedValues(page);
  expect([...stored.local, ...stored.session].join('\n')).not.toContain(revoked.secret);
});

test('another origin is refused beside the field, before trying, in plain words', async ({
  page,
  seed,
}) => {
  // Without CORS_ORIGINS the page's CSP would block any other origin: the form says so.
  const elsewhere = 'http://127.0.0.1:9/api/v1';
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));

  await page.goto('/sign-in');
  const field = page.getByLabel('API base URL');
  await expect(field).toHaveAccessibleDescription(
    `Only this origin can be used: ${new URL(seed.baseURL).origin}.`,
  );
  await field.fill(elsewhere);
  await connect(page, seed.keys.admin.secret);
  await expect(field).toHaveAccessibleDescription(
    new RegExp(
      escapeRegExp('http://127.0.0.1:9 cannot be used from this console: only this origin can.'),
    ),
  );
  await expect(page.getByText(/could not be reached/)).toHaveCount(0);
  expect(requests.filter((url) => url.startsWith('http://127.0.0.1:9/'))).toEqual([]);
  await expect(whoAmI(page)).toHaveCount(0);
});

test.describe('with CORS_ORIGINS naming another loopback origin', () => {
  // Two more instances of the service on the run's data directory (the same keys): one
  // serves the console, the other the API, each listing both origins.
  const instances: RunningInstance[] = [];

  test.beforeAll(async () => {
    const ports = await freePorts(2);
    const origins = ports.map((port) => `http://127.0.0.1:${port}`).join(',');
    // One after the other, so that afterAll stops whichever started.
    for (const port of ports) instances.push(await startInstance(port, { CORS_ORIGINS: origins }));
  });

  test.afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  test('the console connects to the other origin and works with its API', async ({
    page,
    seed,
  }) => {
    const [consoleOrigin, apiOrigin] = instances.map((instance) => instance.origin);
    const admin = seed.keys.admin;
    await page.goto(`${String(consoleOrigin)}/sign-in?return_to=%2Fsettings`);
    const field = page.getByLabel('API base URL');
    await expect(field).toHaveAccessibleDescription(
      `Only these origins can be used: ${String(consoleOrigin)}, ${String(apiOrigin)}.`,
    );
    await field.fill(`${String(apiOrigin)}/api/v1`);
    await connect(page, admin.secret);
    await expect(
      page.getByText(`Signed in as ${String(admin.status?.email)}`, { exact: true }),
    ).toBeVisible();
    // Another origin's cookie could not work here: the key is held in memory for this tab.
    await expect(page.getByText(`To ${String(apiOrigin)}/api/v1.`)).toBeVisible();
    await expect(page.getByText(/held in memory/)).toBeVisible();
    const stored = await storedValues(page);
    expect([...stored.local, ...stored.session].join('\n')).not.toContain(admin.secret);
    await expect(whoAmI(page)).toContainText(String(admin.status?.email));

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Configs' })
      .click();
    await expect(page.getByRole('table', { name: 'Configs' })).toBeVisible();
  });
});

test('the session holds across reloads and the tabs of this browser, not in another browser', async ({
  page,
  context,
  seed,
  newContext,
}) => {
  const viewer = seed.keys.viewer;
  await connectAs(page, viewer);
  await page.reload();
  await expect(whoAmI(page)).toContainText(String(viewer.status?.email));

  const otherTab = await context.newPage();
  await otherTab.goto('/configs');
  await expect(otherTab).toHaveURL((url) => url.pathname === '/configs');
  await expect(whoAmI(otherTab)).toContainText(String(viewer.status?.email));

  const elsewhere = await (await newContext()).newPage();
  await elsewhere.goto('/configs');
  await expectSentToSignIn(elsewhere);
});

test('sign out ends the session on the server: its cookie, replayed, is refused', async ({
  page,
  context,
  seed,
}) => {
  const admin = seed.keys.admin;
  await connectAs(page, admin);
  const session = (await context.cookies()).filter((cookie) => cookie.name === 'sid');
  expect(session).toHaveLength(1);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expectSentToSignIn(page, 'You are signed out.');

  // The same cookie put back, as a thief who copied it would: the service refuses it.
  await context.addCookies(session);
  await page.goto('/configs');
  await expectSentToSignIn(page);
  const newTab = await context.newPage();
  await newTab.goto('/settings');
  await expectSentToSignIn(newTab);
});
