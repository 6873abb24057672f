/**
 * Signing in with SSO as a person would (docs/people.md): a real OpenID provider on
 * 127.0.0.1 and the console on localhost, two different sites as in production. A person of
 * the organization's domain joins just in time with the role of their groups and reaches the
 * editor; a tampered state lands on the sign-in page in words; a form on another site cannot
 * sign anyone out.
 */
import { createKeyWithCli, expect, test, whoAmI } from './fixtures';
import { currentEditorState, uniqueSuffix } from './editor';
import { provisioning } from './seed';
import { startTestProvider, type TestProvider } from '../src/service/testing/oidc-provider';

test.describe.configure({ timeout: 90_000 });

const port = Number(process.env.E2E_PORT);
const consoleOrigin = `http://localhost:${port}`;
let provider: TestProvider;

test.beforeAll(async () => {
  provider = await startTestProvider({
    clients: [
      {
        client_id: 'e2e-console',
        client_secret: 'e2e-console-secret',
        redirect_uris: [`${consoleOrigin}/api/v1/auth/callback`],
      },
    ],
    identities: [],
  });
});
test.afterAll(async () => {
  await provider.close();
});

/** An account of its own whose organization signs in with the test provider. */
async function ssoOrganization(): Promise<{ domain: string; accountName: string }> {
  const suffix = uniqueSuffix();
  const domain = `sso-${suffix}.test`;
  const accountName = `SSO ${suffix}`;
  const account = provisioning([
    ...['accounts', 'create', '--name', accountName],
    ...['--owner-email', `owner@${domain}`],
  ]) as { user_id: string };
  const ownerKey = createKeyWithCli(account.user_id, `Owner ${suffix}`).secret;
  const answer = await fetch(`${consoleOrigin}/api/v1/organization/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      session_idle_minutes: 30,
      session_max_hours: 12,
      password_sign_in: true,
      sso: {
        issuer: provider.issuer,
        client_id: 'e2e-console',
        client_secret: 'e2e-console-secret',
        email_domains: [domain],
        groups_claim: 'groups',
        group_roles: { engineering: 'editor' },
        default_role: 'refuse',
        jit: true,
      },
    }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
  return { domain, accountName };
}

test.beforeEach(async ({ context, consoleErrors }) => {
  // The provider's development pages ask for a web font: nothing leaves this machine, and
  // the refused font is the provider's page's error, not the console's.
  await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.abort());
  consoleErrors.allow(/^Failed to load resource: net::ERR_FAILED/);
});

test('a person of the domain continues with SSO, joins as an editor and reaches the editor', async ({
  page,
}) => {
  const { domain, accountName } = await ssoOrganization();
  const email = `ana@${domain}`;
  provider.setIdentity({
    login: `ana-${domain}`,
    email,
    email_verified: true,
    name: 'Ana Example',
    groups: ['engineering'],
  });

  await page.goto(`${consoleOrigin}/sign-in?return_to=${encodeURIComponent('/configs')}`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue with SSO' }).click();

  // The provider's own pages, on another site.
  await expect(page).toHaveURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill(`ana-${domain}`);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(`${consoleOrigin}/configs`);
  await expect(whoAmI(page)).toContainText(`Signed in as ${email}`);
  await expect(whoAmI(page)).toContainText(`${accountName} SSO`);
  await expect(whoAmI(page)).toContainText('editor');
  await page.getByRole('link', { name: 'Open the live config' }).click();
  await currentEditorState(page);
});

test('a changed state lands on the sign-in page, saying the sign-in went stale', async ({
  page,
}) => {
  const { domain } = await ssoOrganization();
  provider.setIdentity({
    login: `bo-${domain}`,
    email: `bo@${domain}`,
    email_verified: true,
    groups: ['engineering'],
  });
  await page.goto(`${consoleOrigin}/api/v1/auth/login?email=${encodeURIComponent(`bo@${domain}`)}`);
  await expect(page.locator('input[name="login"]')).toBeVisible();
  // Instead of the provider's answer, the browser comes back with a code and a state this
  // sign-in did not make (a forged link, or one from another attempt).
  await page.goto(`${consoleOrigin}/api/v1/auth/callback?code=forged&state=tampered`);
  await expect(page).toHaveURL((url) => url.pathname === '/sign-in');
  await expect(page.getByRole('alert')).toContainText(/took too long|start again|again/i);
  await expect(page.getByLabel('Email')).toBeVisible();
});

test('someone the organization does not know is told so, with a way back', async ({ page }) => {
  const { domain } = await ssoOrganization();
  provider.setIdentity({
    login: `cy-${domain}`,
    email: `cy@${domain}`,
    email_verified: true,
    groups: ['sales'],
  });
  await page.goto(`${consoleOrigin}/api/v1/auth/login?email=${encodeURIComponent(`cy@${domain}`)}`);
  await page.locator('input[name="login"]').fill(`cy-${domain}`);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/sign-in');
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByLabel('Email')).toBeVisible();
});

test('a form on another site cannot sign a person out, nor change anything', async ({
  page,
  baseURL,
  consoleErrors,
}) => {
  // The forms' own answers: the session cookie (SameSite=Strict) never went with them.
  consoleErrors.allowFailedRequest(401, '/api/v1/auth/logout');
  consoleErrors.allowFailedRequest(401, '/api/v1/auth/refresh');
  const { domain } = await ssoOrganization();
  const email = `dee@${domain}`;
  provider.setIdentity({
    login: `dee-${domain}`,
    email,
    email_verified: true,
    groups: ['engineering'],
  });
  await page.goto(`${consoleOrigin}/api/v1/auth/login?email=${encodeURIComponent(email)}`);
  await page.locator('input[name="login"]').fill(`dee-${domain}`);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(whoAmI(page)).toContainText(`Signed in as ${email}`);

  // Another site (the e2e server's 127.0.0.1 name) posts forms at the console's service.
  const other = await page.context().newPage();
  await other.goto(`${String(baseURL)}/api/v1/health`);
  for (const path of ['/api/v1/auth/logout', '/api/v1/auth/refresh']) {
    await other.evaluate(
      ({ action }) => {
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = action;
        form.target = '_blank';
        document.body.append(form);
        form.submit();
      },
      { action: `${consoleOrigin}${path}` },
    );
  }
  await other.close();

  await page.reload();
  await expect(whoAmI(page)).toContainText(`Signed in as ${email}`);
});
