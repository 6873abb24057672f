import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../../contract/auth-status';
import type {
  Invitation,
  Member,
  OrganizationSettings,
  OrganizationSettingsUpdate,
  Session,
} from '../../../contract/people';
import { problemOf } from '../../../contract/problem';
import { routes } from '../../app/routes';
import { handle, recordRequests, setupContractServer } from '../../testing/msw-contract';
import { connectForTest, renderRoutes } from '../../testing/test-utils';

const server = setupContractServer();

const admin: AuthStatus = {
  idp_organization_id: 'org_1',
  email: 'ana@acme.com',
  user_id: 'usr_ana',
  role: 'admin',
  session_id: 'ses_1',
  permissions: ['config:read', 'config:write', 'config:publish', 'members:manage'],
};
const viewer: AuthStatus = {
  ...admin,
  email: 'vic@acme.com',
  user_id: 'usr_vic',
  role: 'viewer',
  permissions: ['config:read'],
};

const members: Member[] = [
  {
    user_id: 'usr_ana',
    email: 'ana@acme.com',
    name: 'Ana',
    role: 'admin',
    sign_in: 'sso',
    last_sign_in_at: '2026-11-22T09:00:00.000Z',
    status: 'active',
    organization_owner: true,
  },
  {
    user_id: 'usr_vic',
    email: 'vic@acme.com',
    name: null,
    role: 'viewer',
    sign_in: 'password',
    last_sign_in_at: null,
    status: 'active',
    organization_owner: false,
  },
];

const pending: Invitation = {
  id: 'inv_1',
  email: 'new@acme.com',
  role: 'editor',
  status: 'pending',
  created_at: '2026-11-21T10:00:00.000Z',
  expires_at: '2026-11-28T10:00:00.000Z',
};

function open(path: string, status: AuthStatus) {
  connectForTest({ person: status.user_id ?? null });
  server.use(handle('getAuthStatus', () => ({ status: 200, body: status })));
  return renderRoutes(routes, { path });
}

describe('Settings → Members', () => {
  it('a viewer reads the members, with no way to change them, and asks for no invitations', async () => {
    server.use(handle('listMembers', () => ({ status: 200, body: members })));
    const seen = recordRequests(server);
    open('/settings/members', viewer);
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Email', 'Name', 'Role', 'Signs in with', 'Last sign-in']);
    expect(table.textContent).toContain('SSO');
    expect(table.textContent).toContain('Never');
    expect(within(table).queryAllByRole('button')).toEqual([]);
    expect(within(table).queryAllByRole('combobox')).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Invitations' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Sign-in' })).toBeNull();
    expect(seen.some((request) => request.url.includes('/invitations'))).toBe(false);
  });

  it('says in words why the last admin cannot be removed or demoted (409 last_admin)', async () => {
    server.use(
      handle('listMembers', () => ({ status: 200, body: members })),
      handle('listInvitations', () => ({ status: 200, body: [] })),
      handle('removeMember', () => ({
        problem: problemOf('last_admin', 'The account would be left without an admin'),
      })),
      handle('updateMember', () => ({
        problem: problemOf('last_admin', 'The account would be left without an admin'),
      })),
    );
    open('/settings/members', admin);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove ana@acme.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove ana@acme.com?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'ana@acme.com was not removed. The account needs at least one admin: make someone else an admin first.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Role of ana@acme.com' }),
      'viewer',
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The role of ana@acme.com was not changed. The account needs at least one admin: make someone else an admin first.',
    );
  });

  it('changes a role, ends a member’s sessions, invites with a link shown once, and revokes an invitation', async () => {
    const roles: string[] = [];
    const ended: string[] = [];
    const revoked: string[] = [];
    let invitations: Invitation[] = [pending];
    server.use(
      handle('listMembers', () => ({ status: 200, body: members })),
      handle('listInvitations', () => ({ status: 200, body: invitations })),
      handle('updateMember', ({ params, body }) => {
        roles.push(`${params.user_id}=${body.role}`);
        const member = members.find((candidate) => candidate.user_id === params.user_id);
        return member
          ? { status: 200, body: { ...member, role: body.role } }
          : { problem: problemOf('not_found', 'No such member') };
      }),
      handle('endMemberSessions', ({ params }) => {
        ended.push(params.user_id);
        return { status: 200, body: { ended: 2 } };
      }),
      handle('createInvitation', ({ body }) => {
        const invitation: Invitation = { ...pending, id: 'inv_2', ...body };
        invitations = [invitation, ...invitations];
        return {
          status: 201,
          body: { ...invitation, link: 'http://localhost:3000/invitations/tok_once' },
        };
      }),
      handle('revokeInvitation', ({ params }) => {
        revoked.push(params.id);
        invitations = invitations.map((invitation) =>
          invitation.id === params.id ? { ...invitation, status: 'revoked' as const } : invitation,
        );
        return { status: 200, body: { ...pending, status: 'revoked' as const } };
      }),
    );
    const { queryClient } = open('/settings/members', admin);
    const user = userEvent.setup();
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Role of vic@acme.com' }),
      'editor',
    );
    await waitFor(() => expect(roles).toEqual(['usr_vic=editor']));
    await user.click(screen.getByRole('button', { name: 'End the sessions of vic@acme.com' }));
    await waitFor(() => expect(ended).toEqual(['usr_vic']));
    expect(await screen.findByText('2 sessions of vic@acme.com were ended.')).toBeTruthy();

    const invitationsRegion = await screen.findByRole('region', { name: 'Invitations' });
    await user.type(within(invitationsRegion).getByLabelText('Email'), 'zoe@acme.com');
    await user.selectOptions(within(invitationsRegion).getByLabelText('Role'), 'editor');
    await user.click(within(invitationsRegion).getByRole('button', { name: 'Invite' }));
    const link = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Invitation link' });
    expect(link.value).toBe('http://localhost:3000/invitations/tok_once');
    expect(link.readOnly).toBe(true);
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('textbox', { name: 'Invitation link' })).toBeNull();
    await waitFor(() =>
      expect(
        JSON.stringify(
          queryClient
            .getMutationCache()
            .getAll()
            .map((mutation) => mutation.state),
        ),
      ).not.toContain('tok_once'),
    );

    await user.click(
      await screen.findByRole('button', { name: 'Revoke the invitation of new@acme.com' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Revoke the invitation of new@acme.com?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke invitation' }));
    await waitFor(() => expect(revoked).toEqual(['inv_1']));
    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: 'Revoke the invitation of new@acme.com' }),
      ).toBeNull(),
    );
  });
});

describe('Settings → Members: naming an organization owner', () => {
  const owner: AuthStatus = { ...admin, organization_name: 'Acme', organization_owner: true };

  it('an owner names a member an owner after saying what it means; the row then shows Owner', async () => {
    let listed = members;
    const named: string[] = [];
    server.use(
      handle('listMembers', () => ({ status: 200, body: listed })),
      handle('listInvitations', () => ({ status: 200, body: [] })),
      handle('nameOrganizationOwner', ({ params }) => {
        named.push(params.user_id);
        listed = listed.map((member) =>
          member.user_id === params.user_id
            ? { ...member, role: 'admin' as const, organization_owner: true }
            : member,
        );
        return {
          status: 200,
          body: { user_id: params.user_id, email: 'vic@acme.com', accounts: ['acc_1', 'acc_2'] },
        };
      }),
    );
    open('/settings/members', owner);
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Members' });
    const rowOf = (email: string) =>
      within(table)
        .getAllByRole('row')
        .find((row) => row.textContent?.includes(email)) as HTMLElement;
    expect(within(rowOf('ana@acme.com')).getByText('Owner')).toBeTruthy();
    expect(within(rowOf('ana@acme.com')).queryByRole('button', { name: /owner/ })).toBeNull();
    expect(within(rowOf('vic@acme.com')).queryByText('Owner')).toBeNull();

    const make = within(rowOf('vic@acme.com')).getByRole('button', {
      name: 'Make vic@acme.com an owner…',
    });
    expect(make.textContent).toBe('Make owner…');
    await user.click(make);
    const dialog = screen.getByRole('dialog', { name: 'Make vic@acme.com an owner?' });
    expect(dialog.textContent).toContain(
      'vic@acme.com will be able to create accounts and act on every account of Acme',
    );
    expect(dialog.textContent).toContain('This cannot be undone from the console');
    await user.click(within(dialog).getByRole('button', { name: 'Make owner' }));
    await waitFor(() => expect(named).toEqual(['usr_vic']));
    await waitFor(() => expect(within(rowOf('vic@acme.com')).queryByText('Owner')).toBeTruthy());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(table).queryByRole('button', { name: /an owner…$/ })).toBeNull();
    expect(
      (screen.getByRole('combobox', { name: 'Role of vic@acme.com' }) as HTMLSelectElement).value,
    ).toBe('admin');
  });

  it('a member who is not an owner, even an admin, is offered no way to name one', async () => {
    server.use(
      handle('listMembers', () => ({ status: 200, body: members })),
      handle('listInvitations', () => ({ status: 200, body: [] })),
    );
    open('/settings/members', { ...admin, organization_owner: false });
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(await within(table).findByRole('button', { name: 'Remove vic@acme.com' })).toBeTruthy();
    expect(within(table).queryByRole('button', { name: /owner/ })).toBeNull();
    expect(within(table).getByText('Owner')).toBeTruthy();
  });

  it('says in the dialog, in words, why naming was refused (403, 404)', async () => {
    let refusal = problemOf('forbidden', "Only the organization's owners may name owners");
    server.use(
      handle('listMembers', () => ({ status: 200, body: members })),
      handle('listInvitations', () => ({ status: 200, body: [] })),
      handle('nameOrganizationOwner', () => ({ problem: refusal })),
    );
    open('/settings/members', owner);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Make vic@acme.com an owner…' }));
    const dialog = screen.getByRole('dialog', { name: 'Make vic@acme.com an owner?' });
    await user.click(within(dialog).getByRole('button', { name: 'Make owner' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'vic@acme.com was not made an owner. Only an owner of the organization may name owners.',
    );

    refusal = problemOf('not_found', 'The member usr_vic was not found in this account');
    await user.click(within(dialog).getByRole('button', { name: 'Make owner' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe(
        'vic@acme.com was not made an owner. They are no longer a member of this account.',
      ),
    );
    // The dialog stays open: the person may try again or cancel.
    expect(screen.getByRole('dialog', { name: 'Make vic@acme.com an owner?' })).toBeTruthy();
  });
});

describe('Settings → Your sessions', () => {
  const sessions: Session[] = [
    {
      id: 'ses_1',
      created_at: '2026-11-22T08:00:00.000Z',
      last_seen_at: '2026-11-22T09:59:00.000Z',
      expires_at: '2026-11-22T10:29:00.000Z',
      ip: '127.0.0.1',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36',
      method: 'password',
      current: true,
    },
    {
      id: 'ses_2',
      created_at: '2026-11-21T08:00:00.000Z',
      last_seen_at: '2026-11-21T09:00:00.000Z',
      expires_at: '2026-11-22T10:29:00.000Z',
      ip: '10.0.0.7',
      user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Firefox/121.0',
      method: 'sso',
      current: false,
    },
  ];

  it('lists where you are signed in, marks this session, ends another, and signs out everywhere else', async () => {
    let open_ = sessions;
    const ended: string[] = [];
    let endedOthers = 0;
    server.use(
      handle('listSessions', () => ({ status: 200, body: open_ })),
      handle('endSession', ({ params }) => {
        ended.push(params.id);
        open_ = open_.filter((session) => session.id !== params.id);
        return { status: 204 };
      }),
      handle('endOtherSessions', () => {
        endedOthers++;
        return { status: 200, body: { ended: 0 } };
      }),
    );
    open('/settings/sessions', admin);
    const table = await screen.findByRole('table', { name: 'Your sessions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]?.textContent).toContain('This session');
    expect(rows[0]?.textContent).toContain('Chrome on Linux');
    expect(rows[1]?.textContent).toContain('Firefox on macOS');
    expect(rows[1]?.textContent).toContain('10.0.0.7');
    expect(rows[1]?.textContent).toContain('SSO');
    expect(within(rows[0] as HTMLElement).queryByRole('button')).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await waitFor(() => expect(endedOthers).toBe(1));

    await user.click(
      within(table).getByRole('button', {
        name: 'End the session from Firefox on macOS, 10.0.0.7',
      }),
    );
    const dialog = screen.getByRole('dialog', { name: 'End this session?' });
    await user.click(within(dialog).getByRole('button', { name: 'End session' }));
    await waitFor(() => expect(ended).toEqual(['ses_2']));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
  });
});

describe('Settings → Sign-in', () => {
  const settings: OrganizationSettings = {
    id: 'org_1',
    name: 'Acme',
    session_idle_minutes: 30,
    session_max_hours: 12,
    password_sign_in: true,
    sso: {
      issuer: 'https://idp.acme.com',
      client_id: 'console',
      client_secret_set: true,
      email_domains: ['acme.com'],
      groups_claim: 'groups',
      group_roles: { 'eng-leads': 'admin' },
      default_role: 'viewer',
      jit: true,
    },
  };

  it('keeps the client secret write-only: says it is set, sends none unless replaced', async () => {
    const puts: OrganizationSettingsUpdate[] = [];
    server.use(
      handle('getOrganizationSettings', () => ({ status: 200, body: settings })),
      handle('setOrganizationSettings', ({ body }) => {
        puts.push(body);
        return { status: 200, body: settings };
      }),
    );
    open('/settings/sign-in', admin);
    const form = await screen.findByRole('form', { name: 'Sign-in settings' });
    const secret = within(form).getByLabelText<HTMLInputElement>('Replace the client secret');
    expect(secret.value).toBe('');
    expect(secret.type).toBe('password');
    expect(form.textContent).toContain('A client secret is set. It is never shown');
    expect(within(form).getByLabelText<HTMLInputElement>('Group 1').value).toBe('eng-leads');

    const user = userEvent.setup();
    const idle = within(form).getByRole('spinbutton', { name: 'Idle minutes' });
    await user.clear(idle);
    await user.type(idle, '15');
    await user.click(within(form).getByRole('button', { name: 'Save sign-in settings' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      session_idle_minutes: 15,
      session_max_hours: 12,
      password_sign_in: true,
      sso: {
        issuer: 'https://idp.acme.com',
        client_id: 'console',
        email_domains: ['acme.com'],
        groups_claim: 'groups',
        group_roles: { 'eng-leads': 'admin' },
        default_role: 'viewer',
        jit: true,
      },
    });

    await user.type(secret, 'a new secret');
    await user.click(within(form).getByRole('button', { name: 'Add a group' }));
    await user.type(within(form).getByLabelText('Group 2'), 'support');
    await user.click(within(form).getByRole('button', { name: 'Save sign-in settings' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]?.sso?.client_secret).toBe('a new secret');
    expect(puts[1]?.sso?.group_roles).toEqual({ 'eng-leads': 'admin', support: 'viewer' });
  });

  it('checks lengths before sending, and is not offered without members:manage', async () => {
    server.use(handle('getOrganizationSettings', () => ({ status: 200, body: settings })));
    const seen = recordRequests(server);
    open('/settings/sign-in', admin);
    const form = await screen.findByRole('form', { name: 'Sign-in settings' });
    const user = userEvent.setup();
    const idle = within(form).getByRole('spinbutton', { name: 'Idle minutes' });
    await user.clear(idle);
    await user.type(idle, '2');
    await user.click(within(form).getByRole('button', { name: 'Save sign-in settings' }));
    expect(await within(form).findByText('Enter a whole number from 5 to 1440.')).toBeTruthy();
    expect(seen.some((request) => request.method === 'PUT')).toBe(false);
  });

  it('tells a member without members:manage that only an admin may change it', async () => {
    const seen = recordRequests(server);
    open('/settings/sign-in', viewer);
    expect(
      await screen.findByText('Only an admin (members:manage) can change how people sign in.'),
    ).toBeTruthy();
    expect(seen.some((request) => request.url.includes('/organization/settings'))).toBe(false);
  });
});
