import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { HttpHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import { assign } from '../../../contract/assignment';
import type { AuthStatus } from '../../../contract/auth-status';
import { routes } from '../../app/routes';
import { ClientKeyServer, REVOKED_AT } from '../../testing/client-key-server';
import { ConfigServer } from '../../testing/config-server';
import { WebhookServer } from '../../testing/webhook-server';
import { handle, setupContractServer } from '../../testing/msw-contract';
import { problemOf } from '../../../contract/problem';
import {
  ADMIN_STATUS,
  connectForTest,
  renderRoutes,
  TEST_BASE_URL,
} from '../../testing/test-utils';
import { CLIENT_IMPORT } from './client-snippet';
import { CANNOT_MANAGE_CLIENT_KEYS } from './components/client-keys-section';

// The page is a lazy chunk and the worker's stand-in imports the config domain.
configure({ asyncUtilTimeout: 5_000 });

const http = setupContractServer();

const LIVE = `apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      button_size: small
  - id: ios-app
    name: Shop for iOS
    platform: ios
ab_tests:
  - id: bigger-button
    app: checkout
    status: running
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
        settings:
          button_size: large
    started_at: "2026-11-20T10:00:00.000Z"
`;

const MANAGER: AuthStatus = {
  ...ADMIN_STATUS,
  permissions: [...(ADMIN_STATUS.permissions ?? []), 'api_keys:manage', 'client_keys:manage'],
};

/** `overrides` answer before the in-memory servers. */
function open(
  status: AuthStatus = MANAGER,
  keys = new ClientKeyServer(),
  ...overrides: HttpHandler[]
) {
  const configs = new ConfigServer({ liveYaml: LIVE, status });
  connectForTest();
  // The webhooks section reads its list too (its own tests: webhooks.test.tsx).
  http.use(...overrides, ...configs.handlers, ...keys.handlers, ...new WebhookServer().handlers);
  return { keys, user: userEvent.setup(), ...renderRoutes(routes, { path: '/delivery' }) };
}

function keyRow(name: string) {
  return within(screen.getByRole('table', { name: 'Client keys' })).getByRole('row', {
    name: new RegExp(name),
  });
}

describe('the Delivery page', () => {
  it('has one h1, a title, and a place in the navigation', async () => {
    const { queryClient } = open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Delivery' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    // The title is set in an effect after the first paint.
    await waitFor(() => expect(document.title).toBe('Delivery · Provisioning Console'));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Delivery' }).getAttribute('href')).toBe(
      '/delivery',
    );
    // The page's reads end within this test: none answers after it, into the next.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  });

  it('lists the client keys: name, whole key, apps or "All apps", created, revoked', async () => {
    const keys = new ClientKeyServer([
      { name: 'Web shop', apps: null },
      { name: 'iOS only', apps: ['ios-app'] },
    ]);
    const old = keys.add('Old build', ['checkout']);
    old.revoked_at = REVOKED_AT;
    const { user } = open(MANAGER, keys);
    const table = await screen.findByRole('table', { name: 'Client keys' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Key', 'Apps', 'Created', 'Status']);
    const web = keyRow('Web shop');
    expect(web.textContent).toContain(keys.keys[0]?.key);
    expect(web.textContent).toContain('All apps');
    expect(web.textContent).toContain('2026-11-22');
    expect(keyRow('iOS only').textContent).toContain('ios-app');
    const revoked = keyRow('Old build');
    expect(revoked.textContent).toContain('Revoked');
    expect(within(revoked).queryByRole('button', { name: 'Revoke Old build' })).toBeNull();

    await user.click(within(web).getByRole('button', { name: 'Copy the key of Web shop' }));
    expect(await navigator.clipboard.readText()).toBe(keys.keys[0]?.key);
    expect(await screen.findByText('Client key copied to the clipboard.')).toBeTruthy();
  });

  it('creates a key scoped to a chosen app and shows it with a snippet that holds it', async () => {
    const { keys, user } = open();
    await screen.findByRole('table', { name: 'Client keys' });
    const form = screen.getByRole('form', { name: 'Create a client key' });
    const apps = within(form).getByRole('group', { name: 'Apps' });
    // The choices are the live config's apps.
    expect(within(apps).getAllByRole('checkbox')).toHaveLength(2);

    await user.click(within(form).getByRole('button', { name: 'Create client key' }));
    expect(await within(form).findByText('Enter a name for the key.')).toBeTruthy();
    expect(keys.created).toEqual([]);

    await user.type(within(form).getByLabelText('Name'), 'Checkout web');
    await user.click(within(apps).getByRole('checkbox', { name: /Checkout/ }));
    await user.click(within(form).getByRole('button', { name: 'Create client key' }));

    const field = await screen.findByRole('textbox', { name: 'New client key' });
    const created = keys.keys.at(-1);
    expect(keys.created).toEqual([{ name: 'Checkout web', apps: ['checkout'] }]);
    expect((field as HTMLInputElement).value).toBe(created?.key);
    const snippet = screen.getAllByLabelText('Snippet for Checkout web')[0];
    const code = snippet?.textContent ?? '';
    expect(code).toContain(`from '${CLIENT_IMPORT}'`);
    expect(code).toContain(`clientKey: '${created?.key}'`);
    expect(code).toContain(`baseUrl: '${TEST_BASE_URL}'`);
    expect(code).toContain(`app: 'checkout'`);
    expect(code).toContain(`client.variant('bigger-button', unit)`);
    expect(code).toContain('await client.ready();');
    expect(code).toContain('client.subscribe(');
    expect(await within(keyRow('Checkout web')).findByText('checkout')).toBeTruthy();

    const [copySnippet] = screen.getAllByRole('button', {
      name: 'Copy the snippet for Checkout web',
    });
    if (!copySnippet) throw new Error('no Copy snippet button');
    await user.click(copySnippet);
    expect(await navigator.clipboard.readText()).toBe(code);
  });

  it('creates a key for all apps when none is checked', async () => {
    const { keys, user } = open();
    const form = await screen.findByRole('form', { name: 'Create a client key' });
    await user.type(within(form).getByLabelText('Name'), 'Everything');
    await user.click(within(form).getByRole('button', { name: 'Create client key' }));
    await screen.findByRole('textbox', { name: 'New client key' });
    expect(keys.created).toEqual([{ name: 'Everything' }]);
    expect(keyRow('Everything').textContent).toContain('All apps');
  });

  it('revokes a key after asking', async () => {
    const keys = new ClientKeyServer([{ name: 'Web shop', apps: null }]);
    const { user } = open(MANAGER, keys);
    await screen.findByRole('table', { name: 'Client keys' });
    await user.click(screen.getByRole('button', { name: 'Revoke Web shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke Web shop?' });
    expect(dialog.textContent).toContain(keys.keys[0]?.key);
    expect(keys.keys[0]?.revoked_at).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(keys.keys[0]?.revoked_at).toBe(REVOKED_AT);
    await waitFor(() => expect(keyRow('Web shop').textContent).toContain('Revoked'));
    expect(screen.queryByRole('button', { name: 'Revoke Web shop' })).toBeNull();
  });

  it('tells a key without client_keys:manage why, and offers no buttons (nor asks for keys)', async () => {
    // No client-key handler: a request for the list would fail the test.
    const configs = new ConfigServer({ liveYaml: LIVE, status: ADMIN_STATUS });
    connectForTest();
    http.use(...configs.handlers);
    renderRoutes(routes, { path: '/delivery' });
    const section = await screen.findByRole('region', { name: 'Client keys' });
    expect(section.textContent).toContain(CANNOT_MANAGE_CLIENT_KEYS);
    expect(within(section).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByRole('form', { name: 'Create a client key' })).toBeNull();
    // The apps and what a unit gets need no client key.
    expect(await screen.findByRole('region', { name: 'Apps' })).toBeTruthy();
  });

  it('manages keys while the live config cannot be read, and says so where the apps would be', async () => {
    const keys = new ClientKeyServer([{ name: 'Web shop', apps: null }]);
    open(
      MANAGER,
      keys,
      handle('getLiveConfig', () => ({
        problem: problemOf('database_unavailable', 'The database is unavailable'),
      })),
    );
    expect(await screen.findByRole('table', { name: 'Client keys' })).toBeTruthy();
    expect(keyRow('Web shop').textContent).toContain('All apps');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The live config could not be loaded.',
    );
    expect(screen.getByRole('button', { name: 'Create client key' })).toBeTruthy();
  });

  it("answers what a unit gets for each of the live config's apps", async () => {
    const { user } = open();
    const apps = await screen.findByRole('region', { name: 'Apps' });
    await user.click(within(apps).getByText('Checkout'));
    const box = await within(apps).findByRole('region', {
      name: 'What does a unit of Checkout get?',
    });
    await user.type(within(box).getByLabelText('Unit id'), 'user-2');
    await user.click(within(box).getByRole('button', { name: 'Show' }));
    const variants = await within(box).findByRole('table', { name: 'Variants of user-2' });
    const expected = assign(
      {
        app: { settings: { button_size: 'small' } },
        ab_tests: [
          {
            id: 'bigger-button',
            status: 'running',
            variants: [
              { id: 'control', weight: 50 },
              { id: 'big', weight: 50, settings: { button_size: 'large' } },
            ],
          },
        ],
      },
      'user-2',
    );
    expect(expected.tests).toEqual([{ id: 'bigger-button', variant: 'big' }]);
    expect(variants.textContent).toContain('big');
    const settings = within(box).getByRole('table', { name: 'Settings of user-2' });
    expect(settings.textContent).toContain('"large"');
  });
});
