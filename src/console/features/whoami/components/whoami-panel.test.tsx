import { screen, within } from '@testing-library/react';
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
