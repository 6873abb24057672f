/**
 * Experiment results as a team reads them (docs/experiments.md), in an account of the spec's
 * own: metrics defined on the Metrics page, a running test whose app sent exposures and
 * purchases through the events endpoint, its Results tab after a refresh (the winner, the
 * engine switch kept in the address, Promote from the winner), and the empty state of a
 * test nobody has seen yet. axe in light and dark.
 */
import type { Page } from '@playwright/test';
import { variantOf } from '../src/contract/assignment';
import { uniqueSuffix } from './editor';
import { connect, expect, expectNoAxeViolations, test } from './fixtures';
import { provisioning, type CreatedKey, type Seed } from './seed';

test.describe.configure({ timeout: 120_000, mode: 'serial' });

const VARIANTS = [
  { id: 'control', weight: 50 },
  { id: 'big', weight: 50, settings: { button_size: 'large' } },
];

interface Account {
  readonly owner: CreatedKey;
  readonly liveConfigId: string;
}
let account: Account;

async function api<T>(
  seed: Seed,
  key: CreatedKey,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${seed.baseURL}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key.secret}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** What an app sends: 500 events a batch, as text/plain like the client library. */
async function sendEvents(seed: Seed, clientKey: string, events: object[]): Promise<void> {
  for (let offset = 0; offset < events.length; offset += 500) {
    const response = await fetch(`${seed.baseURL}/api/v1/delivery/${clientKey}/events`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ events: events.slice(offset, offset + 500) }),
    });
    const answer = (await response.json()) as { accepted: number; rejected: unknown[] };
    expect(response.status).toBe(202);
    expect(answer.rejected).toEqual([]);
  }
}

test.beforeAll(async ({ seed }) => {
  const suffix = uniqueSuffix();
  const made = provisioning([
    ...['accounts', 'create', '--name', `Experiments ${suffix}`],
    ...['--owner-email', `owner-${suffix}@experiments.example.com`],
  ]) as { account_id: string; user_id: string };
  const owner = provisioning([
    ...['keys', 'create', '--user', made.user_id, '--name', 'Owner'],
  ]) as CreatedKey;
  await api(seed, owner, 'POST', '/metrics', {
    id: 'purchases',
    name: 'Purchases',
    kind: 'binomial',
    event: 'purchase',
  });
  const draft = await api<{ id: string }>(seed, owner, 'POST', '/config/edit', {
    operations: [
      { create_app: [{ id: 'checkout', name: 'Checkout', platform: 'web' }] },
      {
        create_ab_test: [
          { id: 'bigger-button', app: 'checkout', variants: VARIANTS, metrics: ['purchases'] },
          { id: 'new-header', app: 'checkout', variants: VARIANTS },
        ],
      },
    ],
    summary: 'Checkout and its tests',
  });
  await api(seed, owner, 'POST', '/config/edit', {
    config_id: draft.id,
    operations: [{ start_ab_test: [{ id: 'bigger-button' }, { id: 'new-header' }] }],
  });
  const live = await api<{ id: string }>(seed, owner, 'GET', '/configs/live');
  const { key } = await api<{ key: string }>(seed, owner, 'POST', '/client-keys', {
    name: 'Shop',
  });
  // 1,600 visitors: the big button converts 30% of its units, the control 10% (past the 150
  // conversions a verdict needs).
  const test = { id: 'bigger-button', status: 'running', variants: VARIANTS };
  const at = new Date().toISOString();
  const events = Array.from({ length: 1_600 }, (_, index) => {
    const unit = `visitor-${index}`;
    const variant = variantOf(test, unit)?.id ?? 'control';
    const buys = variant === 'big' ? index % 10 < 3 : index % 10 === 0;
    return [
      { kind: 'exposure', test: 'bigger-button', variant, unit, at, id: `x-${suffix}-${index}` },
      ...(buys
        ? [{ kind: 'metric', event: 'purchase', unit, value: 25, at, id: `p-${suffix}-${index}` }]
        : []),
    ];
  }).flat();
  await sendEvents(seed, key, events);
  account = { owner, liveConfigId: live.id };
});

async function openResults(page: Page, testId: string): Promise<void> {
  await page.goto(`/ab-tests/${account.liveConfigId}/${testId}`);
  await page.getByRole('tab', { name: 'Results' }).click();
  await expect(page).toHaveURL(/tab=results/);
}

test('the Metrics page defines metrics and shows the tests that use them', async ({
  page,
  consoleErrors,
}) => {
  await connect(page, account.owner.secret);
  await page.goto('/metrics');
  await expect(page.getByRole('heading', { level: 1, name: 'Metrics' })).toBeVisible();
  const purchases = page.getByRole('row', { name: /^Purchases/ });
  await expect(purchases.getByRole('link', { name: 'bigger-button' })).toBeVisible();

  const form = page.getByRole('form', { name: 'Define a metric' });
  await form.getByLabel(/^Id/).fill('revenue');
  await form.getByLabel(/^Name/).fill('Revenue');
  await form.getByLabel(/^Measures/).selectOption('mean');
  await form.getByLabel(/^Event/).fill('purchase');
  await form.getByRole('button', { name: 'Define metric' }).click();
  await expect(page.getByRole('row', { name: /^Revenue/ })).toBeVisible();

  // The same id again: refused, in words.
  consoleErrors.allowFailedRequest(409, '/api/v1/metrics');
  await form.getByLabel(/^Id/).fill('revenue');
  await form.getByLabel(/^Name/).fill('Revenue again');
  await form.getByLabel(/^Event/).fill('purchase');
  await form.getByRole('button', { name: 'Define metric' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'The metric was not defined. The account already has a metric with the id "revenue".',
  );
  await expectNoAxeViolations(page);
});

test('the Results tab shows the winner, by either engine, and promotes it', async ({ page }) => {
  await connect(page, account.owner.secret);
  await openResults(page, 'bigger-button');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText('The results are up to date.')).toBeVisible({ timeout: 30_000 });

  const units = page.getByRole('table', { name: 'Units per variant' });
  await expect(units).toBeVisible();
  const table = page.getByRole('table', { name: 'Metrics', exact: true });
  const purchases = table.getByRole('row', { name: /^Purchases/ });
  await expect(purchases.getByText('Winning')).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Chance to win' })).toBeVisible();
  // 30% against 10%: choosing the big button risks next to nothing, and the page says so.
  await expect(table.getByRole('columnheader', { name: 'Risk of choosing' })).toBeVisible();
  await expect(purchases.getByRole('cell', { name: '< 0.1%', exact: true })).toBeVisible();
  await expect(page.getByText(/^What choosing the variant would cost on average/)).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('radio', { name: 'Frequentist' }).click();
  await expect(page).toHaveURL(/engine=frequentist/);
  await expect(table.getByRole('columnheader', { name: 'p-value' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Risk of choosing' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Frequentist' })).toBeChecked();

  await table.getByRole('button', { name: 'Promote big' }).click();
  const dialog = page.getByRole('dialog', { name: 'Promote a winner of bigger-button?' });
  await expect(dialog.getByRole('radio', { name: 'big' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('a running test nobody has seen asks whether the app calls variant()', async ({ page }) => {
  await connect(page, account.owner.secret);
  await openResults(page, 'new-header');
  await page.getByRole('button', { name: 'Refresh' }).click();
  const empty = page.getByRole('region', { name: 'No exposures yet' });
  await expect(empty).toBeVisible({ timeout: 30_000 });
  await expect(empty.getByLabel('Snippet for this test')).toContainText("variant('new-header'");
  await expectNoAxeViolations(page);
});

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' });

  test('the Results tab and the Metrics page read well in the dark', async ({ page }) => {
    await connect(page, account.owner.secret);
    await openResults(page, 'bigger-button');
    await expect(page.getByRole('table', { name: 'Units per variant' })).toBeVisible({
      timeout: 30_000,
    });
    await expectNoAxeViolations(page);
    await page.goto('/metrics');
    await expect(page.getByRole('row', { name: /^Purchases/ })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
