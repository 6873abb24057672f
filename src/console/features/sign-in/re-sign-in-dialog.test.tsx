import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CreateApiKeyRequest } from '../../../contract/api-keys';
import type { AuthStatus } from '../../../contract/auth-status';
import { problemOf } from '../../../contract/problem';
import { DEFAULT_ACCOUNT_POLICY } from '../../../contract/reviews';
import { routes } from '../../app/routes';
import { connectionStore } from '../../lib/connection';
import { handle, setupContractServer } from '../../testing/msw-contract';
import { connectForTest, renderRoutes } from '../../testing/test-utils';

const server = setupContractServer(
  http.get('*/api/v1/account/policy', () => HttpResponse.json(DEFAULT_ACCOUNT_POLICY)),
);

const ana: AuthStatus = {
  idp_organization_id: 'org_1',
  email: 'ana@acme.com',
  user_id: 'usr_ana',
  role: 'admin',
  session_id: 'ses_1',
  session_method: 'password',
  permissions: ['config:read', 'config:write', 'config:publish', 'api_keys:manage'],
};

/**
 * The settings page of a signed-in Ana whose session ends under her: the first key she
 * creates meets a 401 `code`; whatever comes after is answered.
 */
async function sessionEndsWhileCreatingAKey(code: 'session_expired' | 'session_revoked') {
  connectForTest({ person: 'usr_ana' });
  const created: CreateApiKeyRequest[] = [];
  let sessionOver = true;
  server.use(
    handle('getAuthStatus', () => ({ status: 200, body: ana })),
    handle('listApiKeys', () => ({ status: 200, body: [] })),
    handle('getSignInOptions', () => ({ status: 200, body: { password: true, sso: true } })),
    handle('createApiKey', ({ body }) => {
      if (sessionOver) return { problem: problemOf(code, 'The session ended') };
      created.push(body);
      return {
        status: 201,
        body: {
          id: 'key_new',
          name: body.name,
          obfuscated_value: 'sk_…new1',
          permissions: ['config:read' as const],
          created_at: '2026-11-22T10:00:00.000Z',
          last_used_at: null,
          expires_at: null,
          revoked_at: null,
          secret: 'sk_secret_after_signing_in_again',
        },
      };
    }),
  );
  renderRoutes(routes, { path: '/settings' });
  await screen.findByRole('table', { name: 'API keys' });
  const user = userEvent.setup();
  const name = screen.getByRole('textbox', { name: 'Name' });
  await user.type(name, 'Deploy bot, half typed');
  await user.click(screen.getByRole('button', { name: 'Create key' }));
  const dialog = await screen.findByRole('dialog', { name: 'Your session ended — sign in again' });
  return {
    user,
    dialog,
    name,
    created,
    renew: () => {
      sessionOver = false;
    },
  };
}

describe('signing in again in place', () => {
  it('keeps the page and its half-filled form, and sends the held request once the same person is back', async () => {
    const { user, dialog, name, created, renew } =
      await sessionEndsWhileCreatingAKey('session_expired');
    expect(dialog.textContent).toContain('Your session has expired.');
    // Nothing was unmounted: the text is still in the form behind the dialog.
    expect((name as HTMLInputElement).value).toBe('Deploy bot, half typed');
    expect(connectionStore.getSnapshot().connection).not.toBeNull();
    // Her email is known: the dialog asks only for the password (or SSO, or a key).
    expect(within(dialog).queryByLabelText('Email')).toBeNull();
    expect(await within(dialog).findByRole('button', { name: 'Continue with SSO' })).toBeTruthy();
    expect(within(dialog).getByLabelText('API key')).toBeTruthy();

    server.use(
      handle('signInWithPassword', ({ body }) => {
        expect(body.email).toBe('ana@acme.com');
        renew();
        return { status: 200, body: { ...ana, session_id: 'ses_2' } };
      }),
    );
    await user.type(await within(dialog).findByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));

    // The held request went on by itself, with what she had typed.
    expect(
      (await screen.findByRole<HTMLInputElement>('textbox', { name: 'New API key' })).value,
    ).toBe('sk_secret_after_signing_in_again');
    expect(created).toEqual([{ name: 'Deploy bot, half typed' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(connectionStore.getSnapshot().interrupted).toBeNull();
  });

  it('says so when another person signs in, and does not hand them the page', async () => {
    const { user, dialog, created } = await sessionEndsWhileCreatingAKey('session_revoked');
    expect(dialog.textContent).toContain('Your session was ended.');
    server.use(
      handle('signInWithPassword', () => ({
        status: 200,
        body: { ...ana, email: 'bob@acme.com', user_id: 'usr_bob' },
      })),
    );
    await user.type(await within(dialog).findByLabelText('Password'), 'bob knows his own');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'You signed in as bob@acme.com, but this page was ana@acme.com',
    );
    expect(within(dialog).getByRole('button', { name: 'Reload' })).toBeTruthy();
    // Still held: nothing of Ana's page is sent in Bob's session.
    await waitFor(() => expect(connectionStore.getSnapshot().interrupted).toBe('revoked'));
    expect(created).toEqual([]);
  });

  it('a wrong password in the dialog is said there, and the dialog stays', async () => {
    const { user, dialog } = await sessionEndsWhileCreatingAKey('session_expired');
    server.use(
      handle('signInWithPassword', () => ({
        problem: problemOf('sign_in_failed', 'The email or password is not right'),
      })),
    );
    await user.type(await within(dialog).findByLabelText('Password'), 'not quite right');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The email or password is not right.',
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
