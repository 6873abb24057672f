/**
 * Environments as a team uses them (docs/environments.md): an organization of its own with a
 * protected production and a staging made from it. A person switches between the two (the
 * account in the address), promotes staging's new app to production as a draft that waits
 * for a colleague's approval and their typed "Production", and schedules a publish that an
 * app's event stream then receives.
 */
import type { Page } from '@playwright/test';
import { uniqueSuffix } from './editor';
import { connect, expect, expectNoAxeViolations, test } from './fixtures';
import { provisioning, type CreatedKey, type Seed } from './seed';

// Monaco loads on several pages, and one journey waits for a scheduled publish.
test.describe.configure({ timeout: 120_000, mode: 'serial' });

interface Organization {
  readonly production: string;
  readonly staging: string;
  readonly owner: CreatedKey;
  readonly reviewer: CreatedKey;
}

let organization: Organization;

async function api<T>(
  seed: Seed,
  key: CreatedKey,
  method: string,
  path: string,
  body?: unknown,
  accountId?: string,
): Promise<T> {
  const response = await fetch(`${seed.baseURL}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key.secret}`,
      ...(accountId ? { 'x-account-id': accountId } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

test.beforeAll(async ({ seed }) => {
  const suffix = uniqueSuffix();
  const made = provisioning([
    ...['accounts', 'create', '--name', 'Production'],
    ...['--owner-email', `owner-${suffix}@envs.example.com`],
  ]) as { account_id: string; user_id: string };
  const owner = provisioning([
    ...['keys', 'create', '--user', made.user_id, '--name', 'Owner'],
  ]) as CreatedKey;
  const reviewerUser = provisioning([
    ...['users', 'create', '--account', made.account_id],
    ...['--email', `reviewer-${suffix}@envs.example.com`, '--role', 'admin'],
  ]) as { user_id: string };
  const reviewer = provisioning([
    ...['keys', 'create', '--user', reviewerUser.user_id, '--name', 'Reviewer'],
  ]) as CreatedKey;
  await api(seed, owner, 'PATCH', `/accounts/${made.account_id}`, { protected: true });
  const staging = await api<{ id: string }>(seed, owner, 'POST', '/accounts', {
    name: 'Staging',
    account_type: 'staging',
    copy_from: made.account_id,
  });
  organization = { production: made.account_id, staging: staging.id, owner, reviewer };
});

function environment(page: Page) {
  return page.getByRole('banner').locator('.environment');
}

test('switching environments keeps each one in its own address', async ({ page }) => {
  await connect(page, organization.owner.secret);
  await page.goto(`/a/${organization.production}/configs`);
  await expect(environment(page)).toContainText('Production');
  await expect(environment(page)).toHaveClass(/environment-production/);
  await expectNoAxeViolations(page);

  await page
    .getByRole('combobox', { name: 'Environment' })
    .selectOption({ label: 'Staging (Staging)' });
  await expect(page).toHaveURL(new RegExp(`/a/${organization.staging}/configs$`));
  await expect(environment(page)).toHaveClass(/environment-staging/);
  await expect(page.getByRole('heading', { level: 1, name: 'Configs' })).toBeVisible();

  // Another tab stays in production.
  const other = await page.context().newPage();
  await other.goto(`/a/${organization.production}/configs`);
  await expect(environment(other)).toHaveClass(/environment-production/);
  await expect(environment(page)).toHaveClass(/environment-staging/);
  await expectNoAxeViolations(page);
});

test('a new app goes from staging to production through review', async ({ page, seed }) => {
  const { owner, reviewer, production, staging } = organization;
  const appId = `search-${uniqueSuffix()}`;
  // Staging has the new app live.
  const draft = await api<{ id: string }>(
    seed,
    owner,
    'POST',
    '/config/edit',
    {
      operations: [{ create_app: [{ id: appId, name: 'Search', platform: 'web' }] }],
      summary: 'Add search',
    },
    staging,
  );
  await api(seed, owner, 'POST', `/configs/${draft.id}/publish`, {}, staging);
  const stagingLive = await api<{ id: string }>(
    seed,
    owner,
    'GET',
    '/configs/live',
    undefined,
    staging,
  );
  await api(seed, owner, 'PUT', '/account/policy', {
    approvals_required: 1,
    reset_approvals_on_edit: true,
  });

  await connect(page, owner.secret);
  await page.goto(`/a/${staging}/configs/${stagingLive.id}/compare`);
  const table = page.getByRole('table', { name: /What differs/ });
  await expect(table.getByRole('checkbox', { name: `Promote App ${appId}` })).toBeChecked();
  await expectNoAxeViolations(page);
  await page.getByLabel('Draft name').fill('Ship search');
  await page.getByRole('button', { name: 'Create draft in Production' }).click();
  await page.getByRole('link', { name: 'Open the draft in Production' }).click();
  await expect(page).toHaveURL(new RegExp(`/a/${production}/configs/cfg_`));
  await expect(environment(page)).toHaveClass(/environment-production/);
  const draftId = new URL(page.url()).pathname.split('/').pop() as string;

  // Production's policy holds it until a colleague approves.
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeDisabled();
  await api(seed, owner, 'POST', `/configs/${draftId}/review-request`, {});
  await api(seed, reviewer, 'POST', `/configs/${draftId}/reviews`, { verdict: 'approve' });
  await page.reload();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /^Publish / });
  await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Type Production to confirm.');
  await dialog.getByLabel(/Production is protected/).fill('Production');
  await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText('Published. This version is now live.')).toBeVisible();
  const live = await api<{ yaml: string }>(seed, owner, 'GET', '/configs/live');
  expect(live.yaml).toContain(appId);
});

test('a scheduled publish reaches an app listening to its stream', async ({ page, seed }) => {
  const { owner, staging } = organization;
  const appId = `kiosk-${uniqueSuffix()}`;
  const first = await api<{ id: string }>(
    seed,
    owner,
    'POST',
    '/config/edit',
    {
      operations: [
        {
          create_app: [{ id: appId, name: 'Kiosk', platform: 'web', settings: { theme: 'light' } }],
        },
      ],
      summary: 'Kiosk',
    },
    staging,
  );
  await api(seed, owner, 'POST', `/configs/${first.id}/publish`, {}, staging);
  const clientKey = await api<{ key: string }>(
    seed,
    owner,
    'POST',
    '/client-keys',
    { name: 'Kiosk', apps: [appId] },
    staging,
  );
  const draft = await api<{ id: string }>(
    seed,
    owner,
    'POST',
    '/config/edit',
    {
      operations: [{ update_app: [{ id: appId, settings: { theme: 'dark' } }] }],
      summary: 'Dark kiosk',
    },
    staging,
  );

  // The app listens before anything is scheduled.
  const abort = new AbortController();
  const stream = await fetch(
    `${seed.baseURL}/api/v1/delivery/${clientKey.key}/stream?app=${appId}`,
    { signal: abort.signal },
  );
  expect(stream.status).toBe(200);
  const dark = readUntil(stream, '"theme":"dark"');

  await connect(page, owner.secret);
  await page.goto(`/a/${staging}/configs/${draft.id}`);
  // Beside Publish, as the person reaches for it; the schedule then shows under Releases.
  await page.getByRole('button', { name: 'Schedule publish…' }).click();
  const dialog = page.getByRole('dialog', { name: /Schedule the publish of/ });
  // A few seconds ahead, in the browser's own time zone.
  const at = await page.evaluate(() => {
    const when = new Date(Date.now() + 6_000 - new Date().getTimezoneOffset() * 60_000);
    return when.toISOString().slice(0, 19);
  });
  await dialog.getByLabel('Publish at').fill(at);
  await dialog.getByRole('button', { name: 'Schedule publish' }).click();
  const releases = page.getByRole('region', { name: 'Releases' });
  await expect(releases.getByRole('list', { name: 'Scheduled changes' })).toContainText(
    'scheduled by',
  );
  await expectNoAxeViolations(page);
  try {
    expect(await dark).toContain(appId);
  } finally {
    abort.abort();
  }
});

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' });

  test('the banner, the comparison and the schedule dialog have no axe violations', async ({
    page,
    seed,
  }) => {
    const { owner, staging, production } = organization;
    const draft = await api<{ id: string }>(
      seed,
      owner,
      'POST',
      '/config/edit',
      {
        operations: [
          { create_app: [{ id: `dark-${uniqueSuffix()}`, name: 'Dark', platform: 'ios' }] },
        ],
        summary: 'Dark check',
      },
      production,
    );
    await connect(page, owner.secret);
    await page.goto(`/a/${production}/configs/${draft.id}/compare`);
    await expect(page.getByRole('table', { name: /What differs/ })).toBeVisible();
    await expect(environment(page)).toHaveClass(/environment-production/);
    await expectNoAxeViolations(page);

    // Production's policy wants an approval that has not come yet: Publish waits for it, but
    // a publish may still be scheduled (the policy is checked when it runs).
    await page.goto(`/a/${production}/configs/${draft.id}`);
    await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeDisabled();
    await page.getByRole('button', { name: 'Schedule publish…' }).click();
    const dialog = page.getByRole('dialog', { name: /Schedule the publish of/ });
    await expect(dialog.getByLabel(/Production is protected/)).toBeVisible();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.goto(`/a/${staging}/configs`);
    await expect(environment(page)).toHaveClass(/environment-staging/);
    await expectNoAxeViolations(page);
  });
});

/** Reads an event stream until `text` arrives; what was read. */
async function readUntil(response: Response, text: string): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let read = '';
  while (!read.includes(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before ${text}: ${read}`);
    read += decoder.decode(value, { stream: true });
  }
  return read;
}
