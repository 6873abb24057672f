import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../../contract/auth-status';
import type { InvitationPreview } from '../../../contract/people';
import { problemOf } from '../../../contract/problem';
import { routes } from '../../app/routes';
import { connectionStore } from '../../lib/connection';
import { handle, recordRequests, setupContractServer } from '../../testing/msw-contract';
import { renderRoutes } from '../../testing/test-utils';
import { returnPathOf } from './sign-in-page';

const server = setupContractServer();

const preview: InvitationPreview = {
  email: 'zoe@acme.com',
  role: 'editor',
  account_name: 'Shop',
  organization_name: 'Acme',
  status: 'pending',
  expires_at: '2026-11-29T10:00:00.000Z',
  password_sign_in: true,
  sso: true,
};

const zoe: AuthStatus = {
  idp_organization_id: 'org_1',
  email: 'zoe@acme.com',
  user_id: 'usr_zoe',
  role: 'editor',
  session_id: 'ses_9',
  session_method: 'password',
  permissions: ['config:read', 'config:write'],
};

const PASSWORD = 'a long walk by the quiet harbour';

async function openInvitation(invitation: InvitationPreview) {
  server.use(handle('previewInvitation', () => ({ status: 200, body: invitation })));
  const rendered = renderRoutes(routes, { path: '/invitations/tok_1' });
  await screen.findByText(/You are invited to join/);
  return rendered;
}

beforeEach(() => connectionStore.signOut());

describe('an invitation link', () => {
  it('shows what it invites to, and setting a password signs the person in', async () => {
    const bodies: unknown[] = [];
    server.use(
      handle('acceptInvitation', ({ params, body }) => {
        expect(params.token).toBe('tok_1');
        bodies.push(body);
        return { status: 200, body: zoe };
      }),
      handle('getAuthStatus', () => ({ status: 200, body: zoe })),
      handle('listConfigs', () => ({ status: 200, body: [] })),
    );
    const { history } = await openInvitation(preview);
    const main = screen.getByRole('main');
    for (const part of ['zoe@acme.com', 'editor', 'Shop', 'Acme']) {
      expect(main.textContent).toContain(part);
    }
    expect(screen.getByRole('button', { name: 'Continue with SSO' })).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Set a password' });
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText('New password'), PASSWORD);
    await user.type(within(form).getByLabelText('Confirm the password'), PASSWORD);
    await user.click(within(form).getByRole('button', { name: 'Set password and sign in' }));
    await screen.findByRole('complementary', { name: 'Who you are' });
    expect(bodies).toEqual([{ password: PASSWORD }]);
    // The index route redirects to /configs in an effect, after the layout has rendered.
    await waitFor(() => expect(history.location.pathname).toBe('/configs'));
    expect(connectionStore.getSnapshot()).toMatchObject({ confirmed: true, person: 'usr_zoe' });
  });

  it('checks length and agreement before sending, then shows the server’s reasons in its words', async () => {
    const seen = recordRequests(server);
    server.use(
      handle('acceptInvitation', () => ({
        problem: problemOf('invalid_request', 'The password is refused', {
          errors: [{ path: '/password', message: 'This password is too common: choose another' }],
        }),
      })),
    );
    await openInvitation(preview);
    const form = screen.getByRole('form', { name: 'Set a password' });
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText('New password'), 'too short');
    await user.click(within(form).getByRole('button', { name: 'Set password and sign in' }));
    expect(within(form).getByText('Use at least 15 characters.')).toBeTruthy();
    await user.clear(within(form).getByLabelText('New password'));
    await user.type(within(form).getByLabelText('New password'), PASSWORD);
    await user.type(within(form).getByLabelText('Confirm the password'), `${PASSWORD}.`);
    await user.click(within(form).getByRole('button', { name: 'Set password and sign in' }));
    expect(within(form).getByText('The two passwords are not the same.')).toBeTruthy();
    expect(seen.filter((request) => request.method === 'POST')).toHaveLength(0);

    await user.clear(within(form).getByLabelText('Confirm the password'));
    await user.type(within(form).getByLabelText('Confirm the password'), PASSWORD);
    await user.click(within(form).getByRole('button', { name: 'Set password and sign in' }));
    expect((await within(form).findByRole('alert')).textContent).toContain(
      'This password is too common: choose another',
    );
    expect(connectionStore.getSnapshot().connection).toBeNull();
  });

  it.each([
    ['accepted', 'This invitation was already used.'],
    ['revoked', 'This invitation was revoked.'],
    ['expired', 'This invitation has expired.'],
  ] as const)('a link %s says so, with a way to the sign-in page', async (status, words) => {
    await openInvitation({ ...preview, status });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(words);
    expect(within(alert).getByRole('link', { name: 'Go to the sign-in page' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Set a password' })).toBeNull();
  });

  it('an unknown link says it does not exist', async () => {
    server.use(
      handle('previewInvitation', () => ({ problem: problemOf('not_found', 'No invitation') })),
    );
    renderRoutes(routes, { path: '/invitations/tok_unknown' });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This invitation link does not exist.',
    );
  });
});

describe('where signing in leads back to', () => {
  it('is a path of the console, never another site', () => {
    expect(returnPathOf('/configs/live?x=1')).toBe('/configs/live?x=1');
    expect(returnPathOf(null)).toBe('/');
    expect(returnPathOf('https://evil.example/')).toBe('/');
    expect(returnPathOf('//evil.example/')).toBe('/');
    expect(returnPathOf('/\\evil.example/')).toBe('/');
    expect(returnPathOf('/sign-in?return_to=/x')).toBe('/');
  });
});
