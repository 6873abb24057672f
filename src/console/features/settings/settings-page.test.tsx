import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../contract/api-keys';
import type { AuthStatus } from '../../../contract/auth-status';
import { CONNECT_ORIGINS_META } from '../../../contract/connect-origins';
import { problemOf } from '../../../contract/problem';
import { DEFAULT_ACCOUNT_POLICY } from '../../../contract/reviews';
import { routes } from '../../app/routes';
import { connectionStore } from '../../lib/connection';
import {
  handle,
  notOffered,
  recordRequests,
  setupContractServer,
  unauthorized,
} from '../../testing/msw-contract';
import {
  ADMIN_STATUS,
  connectForTest,
  renderRoutes,
  TEST_BASE_URL,
  TEST_KEY,
} from '../../testing/test-utils';

// Every connected settings page reads the review policy, at whichever origin it connects to.
const server = setupContractServer(
  http.get('*/api/v1/account/policy', () => HttpResponse.json(DEFAULT_ACCOUNT_POLICY)),
);

const adminStatus: AuthStatus = {
  ...ADMIN_STATUS,
  permissions: ['config:read', 'config:write', 'config:publish', 'api_keys:manage'],
};

function keyRecord(id: string, name: string, extra: Partial<ApiKey> = {}): ApiKey {
  return {
    id,
    name,
    obfuscated_value: `sk_…${id.slice(-4)}`,
    permissions: ['config:read'],
    created_at: '2026-11-20T10:00:00.000Z',
    last_used_at: null,
    expires_at: null,
    revoked_at: null,
    ...extra,
  };
}

async function connectWith(key: string, { remember = false } = {}) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('API key'), key);
  if (remember) await user.click(screen.getByRole('checkbox', { name: 'Remember on this device' }));
  await user.click(screen.getByRole('button', { name: 'Connect' }));
  return user;
}

/** The settings page, once its chunk has loaded (it is lazy, like every page but the first). */
async function openSettings() {
  const rendered = renderRoutes(routes, { path: '/settings' });
  await screen.findByRole('heading', { level: 1, name: 'Settings' });
  return rendered;
}

/** A server that knows the admin's key and has no other keys. */
function adminServer() {
  server.use(
    handle('getAuthStatus', () => ({ status: 200, body: adminStatus })),
    handle('listApiKeys', () => ({ status: 200, body: [] })),
  );
}

/** What a screen reader reads after the field's name: its hint and error, in that order. */
function accessibleDescriptionOf(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

function storedAnywhere(): boolean {
  return sessionStorage.length > 0 || localStorage.length > 0;
}

describe('the settings page: connection', () => {
  it.each([
    ['api_key_invalid', 'That API key is not valid.'],
    ['api_key_revoked', 'That API key was revoked.'],
    ['api_key_expired', 'That API key has expired.'],
  ] as const)('says %s in words and stores nothing', async (code, words) => {
    server.use(handle('getAuthStatus', () => unauthorized(code)));
    await openSettings();
    await connectWith('sk_wrong_key_0000000000000000000000');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(words);
    expect(storedAnywhere()).toBe(false);
    expect(connectionStore.getSnapshot().connection).toBeNull();
    expect(screen.queryByRole('complementary', { name: 'Who you are' })).toBeNull();
  });

  it('says when the server cannot be reached, and stores nothing', async () => {
    // Off the contract on purpose: no answer at all.
    server.use(http.get(`${TEST_BASE_URL}/auth/status`, () => HttpResponse.error()));
    await openSettings();
    await connectWith(TEST_KEY);
    expect((await screen.findByRole('alert')).textContent).toBe(
      `The server could not be reached at ${TEST_BASE_URL}.`,
    );
    expect(storedAnywhere()).toBe(false);
  });

  it('checks the form before calling the server', async () => {
    adminServer();
    const seen = recordRequests(server);
    await openSettings();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('API base URL'));
    await user.type(screen.getByLabelText('API base URL'), 'not a url');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(
      await screen.findByText('Enter a URL that starts with http:// or https://.'),
    ).toBeTruthy();
    expect(screen.getByText('Enter an API key.')).toBeTruthy();
    expect(seen).toHaveLength(0);
  });

  it('says beside the base URL that only this origin can be used, and refuses another without trying', async () => {
    adminServer();
    const seen = recordRequests(server);
    await openSettings();
    const field = screen.getByLabelText('API base URL');
    expect(accessibleDescriptionOf(field)).toBe(
      `Only this origin can be used: ${window.location.origin}.`,
    );
    const user = userEvent.setup();
    await user.clear(field);
    await user.type(field, 'http://127.0.0.1:9/api/v1');
    await connectWith(TEST_KEY);
    expect(
      await screen.findByText(
        'http://127.0.0.1:9 cannot be used from this console: only this origin can.',
      ),
    ).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText(/could not be reached/)).toBeNull();
    expect(seen).toHaveLength(0);
    expect(storedAnywhere()).toBe(false);
  });

  describe('with other origins named by the server', () => {
    const OTHER = 'http://127.0.0.1:8081';
    let meta: HTMLMetaElement;
    beforeEach(() => {
      meta = document.createElement('meta');
      meta.name = CONNECT_ORIGINS_META;
      meta.content = `${OTHER} https://console.example.com`;
      document.head.append(meta);
    });
    afterEach(() => meta.remove());

    it('lists them, and connects to one of them', async () => {
      // handle() answers at this origin only: the other one's answers are written out.
      server.use(
        http.get(`${OTHER}/api/v1/auth/status`, () => HttpResponse.json(adminStatus)),
        http.get(`${OTHER}/api/v1/api-keys`, () => HttpResponse.json([])),
      );
      await openSettings();
      const field = screen.getByLabelText('API base URL');
      expect(accessibleDescriptionOf(field)).toBe(
        `Only these origins can be used: ${window.location.origin}, ${OTHER}, https://console.example.com.`,
      );
      const user = userEvent.setup();
      await user.clear(field);
      await user.type(field, 'https://elsewhere.example/api/v1');
      await connectWith(TEST_KEY);
      expect(
        await screen.findByText(
          'https://elsewhere.example cannot be used from this console: only those listed can.',
        ),
      ).toBeTruthy();

      await user.clear(field);
      await user.type(field, `${OTHER}/api/v1`);
      await user.click(screen.getByRole('button', { name: 'Connect' }));
      expect((await screen.findByRole('status')).textContent).toBe('Connected as ada@example.com');
      expect(connectionStore.getSnapshot().connection?.baseUrl).toBe(`${OTHER}/api/v1`);
    });

    it('says that an origin listed here may still not allow this one', async () => {
      server.use(http.get(`${OTHER}/api/v1/auth/status`, () => HttpResponse.error()));
      await openSettings();
      const user = userEvent.setup();
      const field = screen.getByLabelText('API base URL');
      await user.clear(field);
      await user.type(field, `${OTHER}/api/v1`);
      await connectWith(TEST_KEY);
      expect((await screen.findByRole('alert')).textContent).toBe(
        `The server could not be reached at ${OTHER}/api/v1, or it does not allow this origin (${window.location.origin}) in its CORS_ORIGINS.`,
      );
    });
  });

  it('shows and hides the key', async () => {
    await openSettings();
    const user = userEvent.setup();
    const field = screen.getByLabelText<HTMLInputElement>('API key');
    expect(field.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show key' }));
    expect(field.type).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Hide key' }));
    expect(field.type).toBe('password');
  });

  it('connects, keeps the key in sessionStorage, and shows who you are', async () => {
    adminServer();
    const seen = recordRequests(server);
    await openSettings();
    expect((screen.getByLabelText('API base URL') as HTMLInputElement).value).toBe(TEST_BASE_URL);
    await connectWith(TEST_KEY);
    expect((await screen.findByRole('status')).textContent).toBe('Connected as ada@example.com');
    expect(seen[0]?.headers.get('Authorization')).toBe(`Bearer ${TEST_KEY}`);
    expect(sessionStorage.length).toBe(1);
    expect(localStorage.length).toBe(0);
    const panel = screen.getByRole('complementary', { name: 'Who you are' });
    expect(panel.textContent).toContain('ada@example.com');
  });

  it('remembers the key on this device when asked', async () => {
    adminServer();
    await openSettings();
    await connectWith(TEST_KEY, { remember: true });
    await screen.findByText('Connected as ada@example.com');
    expect(localStorage.length).toBe(1);
    expect(sessionStorage.length).toBe(0);
  });

  it('signs out: the key and the cache are gone', async () => {
    connectForTest(true);
    adminServer();
    const { queryClient } = await openSettings();
    await screen.findByText('Connected as ada@example.com');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Connect' })).toBeTruthy();
    expect(storedAnywhere()).toBe(false);
    // No cached response is left (a disabled observer may keep an empty entry).
    expect(
      queryClient
        .getQueryCache()
        .getAll()
        .filter((query) => query.state.data !== undefined),
    ).toEqual([]);
    expect(screen.queryByRole('complementary', { name: 'Who you are' })).toBeNull();
  });

  it('sends a person without a key to the settings', async () => {
    renderRoutes(routes, { path: '/configs' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Connect with an API key to continue.');
  });

  it('a 401 on another page sends the person to the settings with the reason', async () => {
    connectForTest();
    server.use(
      handle('getAuthStatus', () => unauthorized('api_key_revoked')),
      handle('listConfigs', () => unauthorized('api_key_revoked')),
    );
    const { history } = renderRoutes(routes, { path: '/configs' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(history.location.pathname).toBe('/settings');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your API key was revoked. Connect with another key.',
    );
    expect(storedAnywhere()).toBe(false);
  });
});

describe('the settings page: API keys', () => {
  it('lists the keys, creates one and shows its secret once', async () => {
    connectForTest();
    let keys = [
      keyRecord('key_admin', 'Admin key', {
        permissions: adminStatus.permissions as ApiKey['permissions'],
      }),
    ];
    const bodies: unknown[] = [];
    server.use(
      handle('getAuthStatus', () => ({ status: 200, body: adminStatus })),
      handle('createApiKey', ({ body }) => {
        const created = keyRecord('key_new1', 'CI', { permissions: ['config:read'] });
        keys = [...keys, created];
        bodies.push(body);
        return { status: 201, body: { ...created, secret: 'sk_secret_shown_once' } };
      }),
      handle('listApiKeys', () => ({ status: 200, body: keys })),
    );
    const seen = recordRequests(server);
    await openSettings();
    const table = await screen.findByRole('table', { name: 'API keys' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Key', 'Permissions', 'Created', 'Last used', 'Expires', 'Status']);

    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'CI');
    await user.click(screen.getByRole('checkbox', { name: 'config:read' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Expires in days' }), '30');
    await user.click(screen.getByRole('button', { name: 'Create key' }));

    const secret = await screen.findByRole<HTMLInputElement>('textbox', { name: 'New API key' });
    expect(bodies).toEqual([{ name: 'CI', permissions: ['config:read'], expires_in_days: 30 }]);
    expect(secret.value).toBe('sk_secret_shown_once');
    expect(secret.readOnly).toBe(true);
    expect(screen.getByText('Copy this key now: it will not be shown again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy key' })).toBeTruthy();
    // The list was refetched through the factory's key.
    await within(table).findByText('CI');
    expect(seen.filter((request) => request.url.endsWith('/api-keys')).length).toBeGreaterThan(2);
    // One checkbox per permission the caller holds, labelled by the permission.
    for (const permission of adminStatus.permissions ?? []) {
      expect(screen.getByRole('checkbox', { name: permission })).toBeTruthy();
    }
  });

  it("shows the limit's refusal in the create form, and no secret", async () => {
    connectForTest();
    const keys = [
      keyRecord('key_admin', 'Admin key', {
        permissions: adminStatus.permissions as ApiKey['permissions'],
      }),
    ];
    const detail =
      'This person already has 50 active API keys, the most one may have: revoke one before creating another';
    server.use(
      handle('getAuthStatus', () => ({ status: 200, body: adminStatus })),
      handle('createApiKey', () => ({
        problem: problemOf('limit_reached', detail, {
          limit: { name: 'api_keys_per_person', value: 50 },
        }),
      })),
      handle('listApiKeys', () => ({ status: 200, body: keys })),
    );
    await openSettings();
    await screen.findByRole('table', { name: 'API keys' });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'One too many');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(
      await screen.findByText(`The key was not created. ${detail}.`, { exact: true }),
    ).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'New API key' })).toBeNull();
  });

  it('keeps the secret out of the mutation cache once it is shown and put away', async () => {
    connectForTest();
    server.use(
      handle('getAuthStatus', () => ({ status: 200, body: adminStatus })),
      handle('createApiKey', () => ({
        status: 201,
        body: { ...keyRecord('key_new2', 'Deploy'), secret: 'sk_secret_of_the_deploy_key' },
      })),
      handle('listApiKeys', () => ({ status: 200, body: [] })),
    );
    const { queryClient } = await openSettings();
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Deploy');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await screen.findByRole('textbox', { name: 'New API key' });
    await user.click(screen.getByRole('button', { name: 'Done' }));

    expect(screen.queryByRole('textbox', { name: 'New API key' })).toBeNull();
    // The form stays on the page, and with it its mutation: which must not hold the answer.
    await waitFor(() => {
      const mutations = queryClient.getMutationCache().getAll();
      expect(JSON.stringify(mutations.map((mutation) => mutation.state))).not.toContain(
        'sk_secret_of_the_deploy_key',
      );
    });
  });

  it('revokes a key after confirmation; revoking the key in use signs out', async () => {
    connectForTest();
    const keys = [keyRecord('key_admin', 'Admin key'), keyRecord('key_other', 'Old laptop')];
    const revoked: string[] = [];
    server.use(
      handle('getAuthStatus', () => ({ status: 200, body: adminStatus })),
      handle('revokeApiKey', ({ params }) => {
        revoked.push(params.id);
        const key = keys.find((candidate) => candidate.id === params.id);
        if (!key) return { problem: problemOf('not_found', `No key ${params.id}`) };
        return { status: 200, body: { ...key, revoked_at: '2026-11-22T10:00:00.000Z' } };
      }),
      handle('listApiKeys', () => ({
        status: 200,
        body: keys.map((key) =>
          revoked.includes(key.id) ? { ...key, revoked_at: '2026-11-22T10:00:00.000Z' } : key,
        ),
      })),
    );
    await openSettings();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Revoke Old laptop' }));
    let dialog = screen.getByRole('dialog', { name: 'Revoke Old laptop?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(revoked).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Revoke Old laptop' }));
    dialog = screen.getByRole('dialog', { name: 'Revoke Old laptop?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Revoke Old laptop' })).toBeNull(),
    );
    expect(revoked).toEqual(['key_other']);
    expect(connectionStore.getSnapshot().connection).not.toBeNull();

    await user.click(screen.getByRole('button', { name: 'Revoke Admin key' }));
    dialog = screen.getByRole('dialog', { name: 'Revoke Admin key?' });
    expect(dialog.textContent).toContain('revoking it signs you out');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByRole('button', { name: 'Connect' })).toBeTruthy();
    expect(connectionStore.getSnapshot().connection).toBeNull();
    expect(storedAnywhere()).toBe(false);
  });

  it('is hidden when the server does not offer /api-keys', async () => {
    connectForTest();
    // A server with only the core endpoints: /api-keys is not among its routes.
    server.use(
      handle('getAuthStatus', () => ({ status: 200, body: adminStatus })),
      notOffered('listApiKeys'),
    );
    await openSettings();
    await screen.findByText('Connected as ada@example.com');
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'API keys' })).toBeNull());
    expect(screen.getByRole('complementary', { name: 'Who you are' })).toBeTruthy();
  });

  it('is hidden when the key does not hold api_keys:manage', async () => {
    connectForTest();
    server.use(
      handle('getAuthStatus', () => ({
        status: 200,
        body: { ...adminStatus, permissions: ['config:read'] },
      })),
    );
    const seen = recordRequests(server);
    await openSettings();
    await screen.findByText('Connected as ada@example.com');
    expect(screen.queryByRole('heading', { name: 'API keys' })).toBeNull();
    expect(seen.some((request) => new URL(request.url).pathname.endsWith('/api-keys'))).toBe(false);
  });
});
