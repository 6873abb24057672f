/**
 * Webhooks in the console (docs/console.md, "Delivery"): a webhook added on the Delivery page
 * with its secret shown once, a test event that a receiver of the test's own gets and
 * verifies with the Standard Webhooks library, and a failing receiver whose delivery is
 * shown pending with its failed attempt. The receiver is a node:http server on 127.0.0.1,
 * which the service calls because this run sets WEBHOOKS_ALLOW_PRIVATE=1
 * (playwright.config.ts).
 */
import type { Locator, Page } from '@playwright/test';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { uniqueSuffix } from './editor';
import { connectAs, expect, expectNoAxeViolations, saveScreenshot, test } from './fixtures';

const SECRET = /^whsec_[A-Za-z0-9+/]+=*$/;

interface Received {
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A webhook receiver on 127.0.0.1: records every request, answers `status`. */
class Receiver {
  readonly requests: Received[] = [];
  status = 204;
  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        receiver.requests.push({
          headers: flat(request.headers),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        response.writeHead(receiver.status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The request that carried the delivery `id` (its webhook-id header). */
  async delivery(id: string): Promise<Received> {
    await expect
      .poll(() => this.requests.some((request) => request.headers['webhook-id'] === id), {
        timeout: 15_000,
      })
      .toBe(true);
    const found = this.requests.find((request) => request.headers['webhook-id'] === id);
    if (!found) throw new Error(`no delivery ${id}`);
    return found;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function flat(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ),
  );
}

function webhooksSection(page: Page): Locator {
  return page.getByRole('region', { name: 'Webhooks' });
}

async function openDelivery(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Delivery' })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Delivery');
}

/**
 * Sends a test event and returns the id of the delivery the page says it queued (not the
 * `previous` one's, which the page showed until then).
 */
async function sendTestEvent(section: Locator, previous?: string): Promise<string> {
  await section.getByRole('button', { name: 'Send a test event' }).click();
  const queued = section.getByRole('status').filter({ hasText: 'Queued a test event' });
  await expect(queued).toBeVisible();
  if (previous !== undefined) await expect(queued.locator('code')).not.toHaveText(previous);
  const id = await queued.locator('code').innerText();
  expect(id).toMatch(/^msg_/);
  return id;
}

async function expectNoAxeViolationsInBothSchemes(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(page);
    await saveScreenshot(page, `${name}-${colorScheme}`);
  }
}

test('add a webhook, a receiver verifies the test event, a failing receiver is retried', async ({
  page,
  seed,
}) => {
  const receiver = await Receiver.start();
  try {
    const url = receiver.url(`/hooks/${uniqueSuffix()}`);
    await connectAs(page, seed.keys.abAdmin);
    await openDelivery(page);
    const section = webhooksSection(page);

    // Add: the URL, one event, a description.
    const form = section.getByRole('form', { name: 'Add a webhook' });
    await form.getByLabel('URL', { exact: true }).fill(url);
    await form
      .getByRole('group', { name: 'Events' })
      .getByRole('checkbox', { name: /A config is published/ })
      .check();
    await form.getByLabel('Description (optional)').fill('The journey’s receiver');
    await form.getByRole('button', { name: 'Add webhook' }).click();

    // The secret, once: read-only, with Copy and a plain sentence.
    const secretBox = section.getByRole('textbox', { name: 'Signing secret' });
    await expect(secretBox).toHaveValue(SECRET);
    await expect(secretBox).toHaveAttribute('readonly', '');
    const secret = await secretBox.inputValue();
    await expect(section.getByText('it will not be shown again')).toBeVisible();
    const row = section
      .getByRole('table', { name: 'Webhooks' })
      .getByRole('row')
      .filter({ hasText: url });
    await expect(row).toContainText('config.published');
    await expect(row).toContainText('The journey’s receiver');
    await expectNoAxeViolationsInBothSchemes(page, 'webhook-secret');

    // Back on the page later: the secret is gone for good.
    await page.reload();
    await expect(row).toBeVisible();
    await expect(section.getByRole('textbox', { name: 'Signing secret' })).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);

    // A test event: the receiver gets it, signed with that secret; the list says Delivered.
    await section.locator('summary').filter({ hasText: url }).click();
    const deliveries = section.getByRole('table', { name: `Deliveries to ${url}` });
    await expect(deliveries).toBeVisible();
    const first = await sendTestEvent(section);
    const received = await receiver.delivery(first);
    const payload = new Webhook(secret).verify(received.body, received.headers) as {
      type: string;
      timestamp: string;
      data: unknown;
    };
    expect(payload.type).toBe('webhook.test');
    expect(Number.isNaN(Date.parse(payload.timestamp))).toBe(false);
    // A wrong secret does not verify: the signature is really checked.
    expect(() =>
      new Webhook(`whsec_${Buffer.from('not the secret').toString('base64')}`).verify(
        received.body,
        received.headers,
      ),
    ).toThrow();
    const firstRow = deliveries.getByRole('row').filter({ hasText: first });
    await expect(firstRow).toContainText('Delivered');
    await expect(firstRow).toContainText('Test event');
    await expect(firstRow).toContainText(`HTTP ${receiver.status}`);

    // The receiver fails: the delivery stays pending, with the failed attempt and the next one.
    receiver.status = 500;
    const second = await sendTestEvent(section, first);
    const failed = await receiver.delivery(second);
    new Webhook(secret).verify(failed.body, failed.headers);
    const secondRow = deliveries.getByRole('row').filter({ hasText: second });
    await expect(secondRow).toContainText('HTTP 500');
    await expect(secondRow).toContainText('Pending');
    await expect(secondRow.getByRole('cell').nth(4)).toContainText(
      /^(in \d+ (seconds?|minutes?)|Due now)/,
    );
    await expect(firstRow).toContainText('Delivered');
    await expectNoAxeViolationsInBothSchemes(page, 'webhook-deliveries');

    // Delete, after asking: the endpoint leaves the list.
    await row.getByRole('button', { name: `Delete the webhook to ${url}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete the webhook to ${url}?` });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});
