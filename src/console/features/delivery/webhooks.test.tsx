import type { QueryClient } from '@tanstack/react-query';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../../contract/auth-status';
import { routes } from '../../app/routes';
import { ClientKeyServer } from '../../testing/client-key-server';
import { ConfigServer } from '../../testing/config-server';
import { setupContractServer } from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';
import { NEXT_ATTEMPT_AT, WebhookServer, webhookSecret } from '../../testing/webhook-server';
import { PENDING_REFRESH_MS } from './api/get-webhook-deliveries';
import { CHOOSE_AN_EVENT } from './components/create-webhook-form';
import { CANNOT_MANAGE_WEBHOOKS, SECRET_SHOWN_ONCE } from './components/webhooks-section';

// The page is a lazy chunk; a pending delivery is read again every PENDING_REFRESH_MS.
configure({ asyncUtilTimeout: 5_000 });

const http = setupContractServer();

const MANAGER: AuthStatus = {
  ...ADMIN_STATUS,
  permissions: [...(ADMIN_STATUS.permissions ?? []), 'api_keys:manage', 'webhooks:manage'],
};

const HOOK = {
  url: 'https://hooks.example.com/provisioning',
  events: ['config.published' as const],
  description: 'Rebuild the site',
};

function open(hooks = new WebhookServer(), status: AuthStatus = MANAGER) {
  const configs = new ConfigServer({ status });
  connectForTest();
  http.use(...configs.handlers, ...new ClientKeyServer().handlers, ...hooks.handlers);
  return { hooks, user: userEvent.setup(), ...renderRoutes(routes, { path: '/delivery' }) };
}

/** Everything the QueryClient's mutation cache holds. */
function mutationStates(queryClient: QueryClient) {
  return queryClient
    .getMutationCache()
    .getAll()
    .map((mutation) => mutation.state);
}

function hooksTable() {
  return screen.findByRole('table', { name: 'Webhooks' });
}

function hookRow(url: string) {
  return within(screen.getByRole('table', { name: 'Webhooks' })).getByRole('row', {
    name: new RegExp(url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')),
  });
}

/** Opens "Deliveries to <url>" and returns its table once loaded. */
async function openDeliveries(user: ReturnType<typeof userEvent.setup>, url: string) {
  const section = await screen.findByRole('region', { name: 'Webhooks' });
  await user.click(await within(section).findByText(url, { selector: 'summary code' }));
  return within(section).findByRole('table', { name: `Deliveries to ${url}` });
}

function deliveryRow(table: HTMLElement, id: string) {
  return within(table).getByRole('row', { name: new RegExp(id) });
}

describe('webhooks on the Delivery page', () => {
  it('lists the endpoints: URL, events in words, description, created', async () => {
    const hooks = new WebhookServer([
      HOOK,
      {
        url: 'https://ci.example.org/hook',
        events: ['config.published', 'ab_test.changed'],
        description: '',
      },
    ]);
    open(hooks);
    const table = await hooksTable();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['URL', 'Events', 'Description', 'Created', 'Actions']);
    const row = hookRow(HOOK.url);
    expect(row.textContent).toContain('A config is published');
    expect(row.textContent).toContain('config.published');
    expect(row.textContent).not.toContain('ab_test.changed');
    expect(row.textContent).toContain('Rebuild the site');
    expect(row.textContent).toContain('2026-11-22');
    expect(hookRow('https://ci.example.org/hook').textContent).toContain('An A/B test changes');
    expect(
      within(row).getByRole('button', { name: `Delete the webhook to ${HOOK.url}` }),
    ).toBeTruthy();
  });

  it('adds a webhook and shows its secret once: gone after Done and after leaving the page', async () => {
    const { hooks, user, queryClient } = open();
    await hooksTable();
    const form = screen.getByRole('form', { name: 'Add a webhook' });
    const events = within(form).getByRole('group', { name: 'Events' });
    expect(within(events).getAllByRole('checkbox')).toHaveLength(3);

    // Checked in the browser first: a URL and at least one event.
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));
    expect(await within(form).findByText('Enter the URL that receives the events.')).toBeTruthy();
    expect(within(form).getByText(CHOOSE_AN_EVENT)).toBeTruthy();
    await user.type(within(form).getByLabelText('URL'), 'hooks.example.com');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));
    expect(
      await within(form).findByText('Enter a whole URL, starting with https://.'),
    ).toBeTruthy();
    expect(hooks.created).toEqual([]);

    await user.clear(within(form).getByLabelText('URL'));
    await user.type(within(form).getByLabelText('URL'), HOOK.url);
    await user.click(within(events).getByRole('checkbox', { name: /A config is published/ }));
    await user.click(within(events).getByRole('checkbox', { name: /An A\/B test changes/ }));
    await user.type(within(form).getByLabelText('Description (optional)'), 'Rebuild the site');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));

    const secret = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Signing secret' });
    expect(hooks.created).toEqual([
      {
        url: HOOK.url,
        events: ['config.published', 'ab_test.changed'],
        description: 'Rebuild the site',
      },
    ]);
    expect(secret.value).toBe(webhookSecret(1));
    expect(secret.readOnly).toBe(true);
    expect(screen.getByText(SECRET_SHOWN_ONCE)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(secret));
    await user.click(screen.getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(webhookSecret(1));
    // The list has it, without its secret; the form is empty again.
    await waitFor(() => expect(hookRow(HOOK.url).textContent).toContain('An A/B test changes'));
    expect(screen.getByRole('table', { name: 'Webhooks' }).textContent).not.toContain('whsec_');
    expect((within(form).getByLabelText('URL') as HTMLInputElement).value).toBe('');

    // Leave the page and come back: the secret is nowhere, not even in the cache.
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('link', { name: 'Configs' }));
    await screen.findByRole('heading', { level: 1, name: 'Configs' });
    await user.click(within(nav).getByRole('link', { name: 'Delivery' }));
    await hooksTable();
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).toBeNull();
    expect(document.body.textContent).not.toContain('whsec_');
    await waitFor(() => {
      const cached = JSON.stringify([
        queryClient
          .getQueryCache()
          .getAll()
          .map((query) => query.state.data),
        queryClient
          .getMutationCache()
          .getAll()
          .map((mutation) => mutation.state.data),
      ]);
      expect(cached).not.toContain('whsec_');
    });
  });

  it('Done puts the secret away, from the screen and from the mutation cache', async () => {
    const { user, queryClient } = open();
    const form = await screen.findByRole('form', { name: 'Add a webhook' });
    await user.type(within(form).getByLabelText('URL'), HOOK.url);
    await user.click(within(form).getByRole('checkbox', { name: /A config is published/ }));
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));
    await screen.findByRole('textbox', { name: 'Signing secret' });
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).toBeNull();
    expect(screen.queryByText(SECRET_SHOWN_ONCE)).toBeNull();
    // The form is still on the page: its mutation must not keep the answer.
    await waitFor(() =>
      expect(JSON.stringify(mutationStates(queryClient))).not.toContain('whsec_'),
    );
  });

  it("shows the server's refusal of the URL at the URL field", async () => {
    const hooks = new WebhookServer();
    hooks.refuseUrl = 'must be https: (http: only to private addresses, where allowed)';
    const { user } = open(hooks);
    const form = await screen.findByRole('form', { name: 'Add a webhook' });
    const url = within(form).getByLabelText('URL');
    await user.type(url, 'http://hooks.example.com/');
    await user.click(within(form).getByRole('checkbox', { name: /A config is published/ }));
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));
    const message = await within(form).findByText(
      'The URL must be https: (http: only to private addresses, where allowed).',
    );
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(url.getAttribute('aria-describedby')).toContain(message.id);
    expect(hooks.created).toHaveLength(1);
    expect(hooks.webhooks).toEqual([]);
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).toBeNull();
  });

  it("shows the account limit's refusal in the form, and adds nothing", async () => {
    const hooks = new WebhookServer([HOOK]);
    hooks.limit = 1;
    const { user } = open(hooks);
    const form = await screen.findByRole('form', { name: 'Add a webhook' });
    await user.type(within(form).getByLabelText('URL'), 'https://hooks.example.com/second');
    await user.click(within(form).getByRole('checkbox', { name: /A config is published/ }));
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe(
      'The webhook was not added. The account already has 1 webhook endpoints, the most it may have: delete one before adding another.',
    );
    expect(hooks.webhooks).toHaveLength(1);
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).toBeNull();
  });

  it('deletes a webhook after asking', async () => {
    const hooks = new WebhookServer([HOOK]);
    const { user } = open(hooks);
    await hooksTable();
    await user.click(screen.getByRole('button', { name: `Delete the webhook to ${HOOK.url}` }));
    const dialog = await screen.findByRole('dialog', {
      name: `Delete the webhook to ${HOOK.url}?`,
    });
    expect(dialog.textContent).toContain('This cannot be undone.');
    // Cancel has the focus: an Enter by habit deletes nothing.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(hooks.webhooks).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(hooks.webhooks).toEqual([]);
    expect(await screen.findByText('No webhooks yet.')).toBeTruthy();
  });

  it('shows each delivery: event, status in words, attempts, last answer or error, next attempt', async () => {
    const hooks = new WebhookServer([HOOK]);
    const delivered = hooks.queue('wh_1', 'config.published');
    hooks.settle(delivered.id, {
      status: 'delivered',
      attempts: 1,
      last_attempt_at: '2026-11-22T10:00:01.000Z',
      next_attempt_at: null,
      response_status: 204,
    });
    const pending = hooks.queue('wh_1', 'config.published');
    hooks.settle(pending.id, {
      attempts: 2,
      next_attempt_at: NEXT_ATTEMPT_AT,
      response_status: 500,
      error: 'answered 500',
    });
    const failed = hooks.queue('wh_1', 'webhook.test');
    hooks.settle(failed.id, {
      status: 'failed',
      attempts: 9,
      next_attempt_at: null,
      error: 'no answer within 10 s',
    });
    const { user } = open(hooks);
    const table = await openDeliveries(user, HOOK.url);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Event', 'Status', 'Attempts', 'Last answer', 'Next attempt']);

    const cells = (id: string) =>
      within(deliveryRow(table, id))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    const [event, status, attempts, answer, next] = cells(delivered.id);
    expect(event).toContain('A config is published');
    expect(status).toBe('Delivered');
    expect(attempts).toBe('1');
    expect(answer).toBe('HTTP 204');
    expect(next).toBe('None');

    const pendingCells = cells(pending.id);
    expect(pendingCells[1]).toBe('Pending');
    expect(pendingCells[2]).toBe('2');
    expect(pendingCells[3]).toContain('HTTP 500');
    expect(pendingCells[3]).toContain('answered 500');
    expect(pendingCells[4]).toMatch(/^in [\d,]+ days/);
    expect(pendingCells[4]).toContain('2099-01-01 00:00 UTC');

    const failedCells = cells(failed.id);
    expect(failedCells[0]).toContain('Test event');
    expect(failedCells[1]).toContain('Failed');
    expect(failedCells[3]).toBe('No answerno answer within 10 s');
    expect(failedCells[4]).toBe('None');
    // Only the failed one offers Retry.
    expect(within(table).getAllByRole('button', { name: 'Retry' })).toHaveLength(1);
    expect(
      within(deliveryRow(table, failed.id)).getByRole('button', { name: 'Retry' }),
    ).toBeTruthy();
  });

  it('sends a test event, shows it queued, and follows it until it is delivered', async () => {
    const hooks = new WebhookServer([HOOK]);
    const { user } = open(hooks);
    const table = await openDeliveries(user, HOOK.url);
    expect(within(table).getByText('No deliveries yet.')).toBeTruthy();
    const readsBefore = hooks.reads.get('wh_1') ?? 0;

    await user.click(screen.getByRole('button', { name: 'Send a test event' }));
    const queued = await screen.findByText(/Queued a test event/);
    const id = hooks.deliveries.get('wh_1')?.[0]?.id ?? '';
    expect(queued.textContent).toContain(id);
    const row = await within(table).findByRole('row', { name: new RegExp(id) });
    expect(row.textContent).toContain('Test event');
    expect(row.textContent).toContain('Pending');
    expect(row.textContent).toContain('Not sent yet');

    // The sender delivers it; the pending list is read again until it shows so.
    hooks.settle(id, {
      status: 'delivered',
      attempts: 1,
      next_attempt_at: null,
      response_status: 200,
    });
    await waitFor(() => expect(deliveryRow(table, id).textContent).toContain('Delivered'));
    expect(hooks.reads.get('wh_1')).toBeGreaterThan(readsBefore + 1);

    // Nothing is pending: no more reads.
    const reads = hooks.reads.get('wh_1');
    await new Promise((resolve) => setTimeout(resolve, PENDING_REFRESH_MS * 1.5));
    expect(hooks.reads.get('wh_1')).toBe(reads);
  });

  it('retries a failed delivery, which is then pending again', async () => {
    const hooks = new WebhookServer([HOOK]);
    const failed = hooks.queue('wh_1', 'config.published');
    hooks.settle(failed.id, {
      status: 'failed',
      attempts: 9,
      next_attempt_at: null,
      response_status: 503,
    });
    const { user } = open(hooks);
    const table = await openDeliveries(user, HOOK.url);
    await user.click(within(deliveryRow(table, failed.id)).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(deliveryRow(table, failed.id).textContent).toContain('Pending'));
    expect(hooks.deliveries.get('wh_1')?.[0]?.status).toBe('pending');
    expect(within(table).queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(await screen.findByText(`Sending ${failed.id} again.`)).toBeTruthy();
  });

  it('says so when the delivery is no longer failed (409), and shows it as it is now', async () => {
    const hooks = new WebhookServer([HOOK]);
    const failed = hooks.queue('wh_1', 'ab_test.changed');
    hooks.settle(failed.id, { status: 'failed', attempts: 9, next_attempt_at: null });
    const { user } = open(hooks);
    const table = await openDeliveries(user, HOOK.url);
    // Retried elsewhere (another tab) after this list was read.
    hooks.settle(failed.id, { status: 'pending', next_attempt_at: NEXT_ATTEMPT_AT });
    await user.click(within(deliveryRow(table, failed.id)).getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByText(`The delivery was not sent again. ${failed.id} is not failed.`),
    ).toBeTruthy();
    await waitFor(() => expect(deliveryRow(table, failed.id).textContent).toContain('Pending'));
  });

  it('tells a key without webhooks:manage why, offers no buttons, and asks for no webhooks', async () => {
    // No webhook handlers: a request for the list would fail the test.
    const configs = new ConfigServer({ status: ADMIN_STATUS });
    connectForTest();
    http.use(...configs.handlers);
    renderRoutes(routes, { path: '/delivery' });
    const section = await screen.findByRole('region', { name: 'Webhooks' });
    expect(section.textContent).toContain(CANNOT_MANAGE_WEBHOOKS);
    expect(within(section).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByRole('form', { name: 'Add a webhook' })).toBeNull();
  });
});
