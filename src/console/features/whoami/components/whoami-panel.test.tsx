import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStatus } from '../../../../contract/auth-status';
import { DAY } from '../../../lib/time';
import { handle, setupContractServer } from '../../../testing/msw-contract';
import { connectForTest, renderWithProviders } from '../../../testing/test-utils';
import { WhoamiPanel } from './whoami-panel';

const server = setupContractServer();

const NOW = Date.parse('2026-11-22T10:00:00.000Z');

async function renderPanel(status: AuthStatus) {
  connectForTest();
  server.use(handle('getAuthStatus', () => ({ status: 200, body: status })));
  renderWithProviders(<WhoamiPanel />);
  const panel = screen.getByRole('complementary', { name: 'Who you are' });
  await within(panel).findByText('Organization');
  return panel;
}

describe('the whoami panel', () => {
  it('shows every field of the auth status', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const panel = await renderPanel({
      idp_organization_id: 'org_acme',
      auth_type: 'api_key',
      email: 'ada@example.com',
      idp_user_id: 'idp_user_1',
      account_id: 'acc_1',
      user_id: 'usr_1',
      role: 'admin',
      expires_at: '2026-12-22T10:00:00.000Z',
      api_key_id: 'key_1',
      api_key_name: 'Laptop',
      api_key_obfuscated_value: 'sk_…a1b2',
      account_type: 'demo',
      permissions: ['config:read', 'config:write'],
    });
    const text = panel.textContent;
    for (const part of [
      'ada@example.com',
      'admin',
      'acc_1',
      'demo',
      'org_acme',
      'Laptop',
      'sk_…a1b2',
      'config:read',
      'config:write',
    ]) {
      expect(text).toContain(part);
    }
    expect(within(panel).getByText(/^Expires in 30 days/).textContent).toBe(
      'Expires in 30 days · 2026-12-22 10:00 UTC',
    );
    expect(within(panel).queryByText(/This key expires/)).toBeNull();
    expect(text).not.toContain('undefined');
  });

  it('shows only the organization when that is all the server says', async () => {
    const panel = await renderPanel({ idp_organization_id: 'org_only' });
    const terms = within(panel)
      .getAllByRole('term')
      .map((term) => term.textContent);
    expect(terms).toEqual(['Organization']);
    expect(panel.textContent).toContain('org_only');
    expect(panel.textContent).not.toMatch(/undefined|[Ee]xpires|Email|Permissions/);
  });

  it('warns when the key expires in 3 days', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const panel = await renderPanel({
      idp_organization_id: 'org_1',
      expires_at: new Date(NOW + 3 * DAY).toISOString(),
    });
    expect(within(panel).getByText('This key expires in 3 days.')).toBeTruthy();
    expect(within(panel).getByText(/^Expires in 3 days/).textContent).toBe(
      'Expires in 3 days · 2026-11-25 10:00 UTC',
    );
  });

  it('says clearly when the key has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const panel = await renderPanel({
      idp_organization_id: 'org_1',
      expires_at: '2026-11-20T10:00:00.000Z',
    });
    expect(within(panel).getByText('This key has expired.')).toBeTruthy();
    expect(within(panel).getByText(/^Expired 2 days ago/).textContent).toBe(
      'Expired 2 days ago · 2026-11-20 10:00 UTC',
    );
    expect(within(panel).queryByText(/This key expires/)).toBeNull();
  });

  it('says a key without an expiry never expires', async () => {
    const panel = await renderPanel({
      idp_organization_id: 'org_1',
      auth_type: 'api_key',
      api_key_name: 'Laptop',
      api_key_obfuscated_value: 'sk_…a1b2',
    });
    expect(within(panel).getByText('Never expires')).toBeTruthy();
    expect(panel.textContent).not.toMatch(/Expires in|Expired|This key/);
  });

  it('does not say so of a key that has an expiry', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const panel = await renderPanel({
      idp_organization_id: 'org_1',
      api_key_id: 'key_1',
      expires_at: new Date(NOW + 30 * DAY).toISOString(),
    });
    expect(within(panel).queryByText('Never expires')).toBeNull();
  });
});

describe('the whoami panel in a session', () => {
  const session: AuthStatus = {
    idp_organization_id: 'org_acme',
    organization_name: 'Acme',
    email: 'ana@acme.com',
    user_id: 'usr_ana',
    role: 'editor',
    session_id: 'ses_1',
    session_method: 'sso',
    sign_in_name: 'Acme SSO',
    // Idle end in 4 minutes, absolute end in 7 hours.
    expires_at: '2026-11-22T10:04:00.000Z',
    session_max_expires_at: '2026-11-22T17:00:00.000Z',
    permissions: ['config:read', 'config:write'],
  };

  it('says who signed in, with what, and when the session ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const panel = await renderPanel({ ...session, expires_at: '2026-11-22T10:30:00.000Z' });
    expect(within(panel).getByText(/^Signed in as/).textContent).toBe(
      'Signed in as ana@acme.com with Acme SSO · session ends 17:00 UTC (in 7 hours)',
    );
    expect(panel.textContent).toContain('Acme');
    // A session is not a key: no key expiry, no "Never expires".
    expect(within(panel).queryByText(/Never expires|This key/)).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Stay signed in' })).toBeNull();
  });

  it('warns 5 minutes before an idle end, and "Stay signed in" restarts the idle timer', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    let refreshed = 0;
    server.use(
      handle('extendSession', () => {
        refreshed++;
        return { status: 200, body: { ...session, expires_at: '2026-11-22T10:30:00.000Z' } };
      }),
    );
    const panel = await renderPanel(session);
    const warning = await within(panel).findByRole('alert');
    expect(warning.textContent).toContain('Your session ends at 10:04 UTC');
    await userEvent
      .setup({ advanceTimers: () => undefined })
      .click(within(warning).getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(within(panel).queryByRole('alert')).toBeNull());
    expect(refreshed).toBe(1);
  });

  it('reads the status again before warning (other requests may have moved the idle end)', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    let reads = 0;
    connectForTest();
    server.use(
      handle('getAuthStatus', () => {
        reads++;
        return { status: 200, body: session };
      }),
    );
    renderWithProviders(<WhoamiPanel />);
    const panel = screen.getByRole('complementary', { name: 'Who you are' });
    await within(panel).findByRole('alert');
    await waitFor(() => expect(reads).toBe(2));
  });

  it("shows the key's fields when the session came from a key", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const panel = await renderPanel({
      ...session,
      session_method: 'api_key',
      sign_in_name: undefined,
      api_key_id: 'key_1',
      api_key_name: 'Laptop',
      api_key_obfuscated_value: 'sk_…a1b2',
      expires_at: '2026-11-22T10:30:00.000Z',
    });
    expect(within(panel).getByText(/^Signed in as/).textContent).toContain('with an API key');
    expect(panel.textContent).toContain('Laptop');
    expect(panel.textContent).toContain('sk_…a1b2');
  });
});
