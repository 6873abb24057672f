import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../contract/api-keys';
import type { AuthStatus } from '../../../contract/auth-status';
import { problemOf } from '../../../contract/problem';
import { DEFAULT_ACCOUNT_POLICY } from '../../../contract/reviews';
import { routes } from '../../app/routes';
import { connectionStore } from '../../lib/connection';
import {
  handle,
  notOffered,
  recordRequests,
  setupContractServer,
} from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';

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

/** The settings page, once its chunk has loaded (it is lazy, like every page but the first). */
async function openSettings() {
  const rendered = renderRoutes(routes, { path: '/settings' });
  await screen.findByRole('heading', { level: 1, name: 'Settings' });
  return rendered;
}

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
    expect(sessionStorage.length + localStorage.length).toBe(0);
  });

  it('is hidden when the server does not offer /api-keys', async () => {
    connectForTest();
    // A server with only the core endpoints: /api-keys is not among its routes.
    server.use(
      handle('getAuthStatus', () => ({ status: 200, body: adminStatus })),
      notOffered('listApiKeys'),
    );
    await openSettings();
    await screen.findByText('Signed in as ada@example.com');
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
    await screen.findByText('Signed in as ada@example.com');
    expect(screen.queryByRole('heading', { name: 'API keys' })).toBeNull();
    expect(seen.some((request) => new URL(request.url).pathname.endsWith('/api-keys'))).toBe(false);
  });
});
